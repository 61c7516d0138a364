import request from 'supertest';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { linkProblems } from '../src/modules/leads/domain/lead-links';
import { normalisePhone } from '../src/modules/leads/domain/phone';
import { createTestApp, TestApp } from './support/test-app';

describe('demo leads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.get(DemoSeeder).run();
  });
  afterAll(async () => {
    await t.close();
  });

  it('seeds a few hundred valid leads across the demo orders, some secondary, consistently linked', async () => {
    const leads: {
      id: number;
      orderId: number;
      phone: string;
      previousLeadId: number | null;
      nextLeadId: number | null;
      isSecondary: boolean;
      statusId: number;
    }[] = await t.ds.query(
      `SELECT id, order_id AS "orderId", phone, previous_lead_id AS "previousLeadId", next_lead_id AS "nextLeadId",
                is_secondary AS "isSecondary", status_id AS "statusId" FROM lead`,
    );
    expect(leads.length).toBeGreaterThanOrEqual(200);
    expect(new Set(leads.map((l) => l.orderId)).size).toBeGreaterThanOrEqual(3);
    expect(leads.filter((l) => l.isSecondary).length).toBeGreaterThan(5);
    expect(linkProblems(leads)).toEqual([]);
    for (const l of leads) expect(normalisePhone(l.phone)).toMatchObject({ ok: true, e164: l.phone });
    const countries = new Set(leads.map((l) => normalisePhone(l.phone)).map((p) => (p.ok ? p.country : null)));
    expect(countries.size).toBeGreaterThanOrEqual(4);
    expect(new Set(leads.map((l) => l.statusId)).size).toBeGreaterThanOrEqual(6);

    const res = await request(t.http).get('/v2/lead/?limit=100').set('X-Api-Key', t.apiKey).expect(200);
    expect(res.body.data.total).toBe(leads.length);
    // Running the seeder again adds nothing.
    await t.app.get(DemoSeeder).run();
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM lead`))[0].n).toBe(leads.length);
  });
});
