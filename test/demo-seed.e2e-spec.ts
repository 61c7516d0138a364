import request from 'supertest';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { createTestApp, TestApp } from './support/test-app';

/** The demo dataset a newcomer explores first: every step runs, once, and the API serves it. */
describe('demo dataset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('seeds every domain once and the API reads it back', async () => {
    const seeder = t.app.get(DemoSeeder);
    const first = await seeder.run();
    expect(first).toEqual(expect.arrayContaining(['orders', 'leads', 'calls']));
    expect(await seeder.run()).toEqual([]);
    const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey).expect(200);
    expect((await get('/v2/order/')).body.data.total).toBeGreaterThanOrEqual(4);
    expect((await get('/v2/user/list/')).body.data.total).toBeGreaterThanOrEqual(15);
    expect((await get('/v2/agent-group/')).body.data.total).toBeGreaterThanOrEqual(3);
    expect((await get('/v2/custom-field/')).body.data.length).toBeGreaterThanOrEqual(8);
    const leads = (await get('/v2/lead/?limit=100')).body.data;
    expect(leads.total).toBeGreaterThanOrEqual(200);
    expect(leads.list.some((l: { isSecondary: boolean }) => l.isSecondary)).toBe(true);
    const calls = (await get('/v2/call/?orderIds=1,2,3,4,5&limit=100')).body.data;
    expect(calls.total).toBeGreaterThan(100);
    // Each lead's attempt count matches its calls.
    const mismatch = await t.ds.query(
      `SELECT l.id FROM lead l LEFT JOIN (SELECT lead_id, count(*)::int AS n FROM call GROUP BY lead_id) c ON c.lead_id = l.id
       WHERE l.attempt_count <> coalesce(c.n, 0)`,
    );
    expect(mismatch).toEqual([]);
  });
});
