import request from 'supertest';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { insertAgentGroup, insertCallAttemptGroup, insertCallScenario, insertSipEndpoint, insertUser } from './factories/orders';
import { pendingDemoSteps } from './support/demo-steps';
import { createTestApp, TestApp } from './support/test-app';

/** The demo seed steps of custom fields and orders, on their own. */

describe('orders and custom fields demo data', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp();
  });
  afterAll(async () => {
    await s.close();
  });

  it('seeds custom fields of every type and five orders referencing other seeds by natural key, skipping missing ones', async () => {
    const seeder = s.app.get(DemoSeeder);
    // Run only this part's steps: the other domains' steps are marked as applied, their rows inserted here.
    const others = (await pendingDemoSteps(s)).filter((n) => n !== 'custom-fields' && n !== 'orders');
    if (others.length) await s.ds.query(`INSERT INTO demo_seed_step (name) SELECT unnest($1::text[])`, [others]);
    for (const email of ['anna.smirnova@callcenter.example', 'emily.johnson@callcenter.example']) await insertUser(s.ds, { email });
    await insertAgentGroup(s.ds, { ru: 'Продажи', gb: 'Sales' });
    for (const number of ['+74951234567', '+78123456789', '+442071234567']) await insertSipEndpoint(s.ds, number);
    const scenario = await insertCallScenario(s.ds);
    const attempts = await insertCallAttemptGroup(s.ds, { isDefault: true });

    expect(await seeder.run()).toEqual(['custom-fields', 'orders']);

    const fields = (await request(s.http).get('/v2/custom-fields/').set('X-Api-Key', s.apiKey).expect(200)).body.data as { type: string; essence: string }[];
    for (const essence of ['leads', 'orders']) {
      expect(
        fields
          .filter((f) => f.essence === essence)
          .map((f) => f.type)
          .sort(),
      ).toEqual(['bool', 'date', 'datetime', 'float', 'int', 'multiselect', 'select', 'string']);
    }
    const page = (await request(s.http).get('/v2/order/').set('X-Api-Key', s.apiKey).expect(200)).body.data;
    expect(page.total).toBe(5);
    const byCode = Object.fromEntries(page.list.map((o: { code: string }) => [o.code, o]));
    expect(Object.keys(byCode).sort()).toEqual(
      ['london-support-line', 'novostroyki-moskvy', 'stomatologiya-ulybka', 'zagorodnye-doma-reaktivaciya-bazy', 'znanie-online-school'].sort(),
    );
    const london = byCode['london-support-line'];
    expect(london).toMatchObject({
      aiDefaultLanguage: 'gb',
      agentUserIds: [expect.any(Number)],
      agentGroupIds: [],
      callScenarioId: scenario,
      callAttemptGroupId: attempts,
      callHolidayOverrides: ['25.12.2026', '26.12.2026', '01.01.2027', '26.03.2027', '29.03.2027', '03.05.2027'],
      transferNumbers: [
        { number: '+442071234500', names: { gb: 'Escalation desk', ru: 'Старший смены' } },
        { number: '+442071234501', names: { gb: 'Billing' } },
      ],
    });
    expect(Object.values(london.customValues)).toEqual(expect.arrayContaining(['support', 'en,ru', 4.75, true]));
    expect(byCode['novostroyki-moskvy'].agentGroupIds).toHaveLength(1);
    // a second run adds nothing
    expect(await seeder.run()).toEqual([]);
  });
});
