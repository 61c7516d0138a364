import request from 'supertest';
import { progressLine, type Send, simulateDialer } from '../src/cli/dialer-simulator';
import { createDialingOrder, createLeads } from './factories/dialer';
import { createSipEndpoint } from './factories/reference';
import { createTestApp, TestApp } from './support/test-app';

/** The simulated dialer of `npm run demo:dialer`: claims, confirms, records a call with its claim token for each dialable lead. */
describe('demo dialer', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('claims, confirms and records a call for every dialable lead, counting outcomes per order', async () => {
    const orders = [await createDialingOrder(t, 2), await createDialingOrder(t, 1)];
    const sip = await createSipEndpoint(t);
    for (const o of orders)
      await request(t.http)
        .post(`/v2/order/update/${o.id}/`)
        .set('X-Api-Key', t.apiKey)
        .send({ sipEndpointIds: [sip] })
        .expect(200);
    const leads = [...(await createLeads(t, orders[0], 10)), ...(await createLeads(t, orders[1], 5))];
    // The dialer claims from every order whose autodialing is on (these two, in this database).
    const key = await t.keyWith('telephony', 'api');
    const send: Send = async (method, path, body) => {
      const res = await (method === 'GET' ? request(t.http).get(path) : request(t.http).post(path).send(body)).set('X-Api-Key', key);
      return { status: res.status, body: res.body };
    };
    const lines: string[] = [];
    const stats = await simulateDialer(send, { dialerId: 'demo-test', batch: 6, rounds: 4, onRound: (s) => lines.push(progressLine(s)) });
    expect(stats.rounds).toBe(4);
    expect(stats.claimed).toBe(15);
    expect(stats.calls + stats.refused).toBe(15);
    expect(stats.calls).toBe(15);
    expect(Object.values(stats.outcomes).reduce((a, b) => a + b, 0)).toBe(stats.calls);
    expect(stats.perOrder).toEqual({ [orders[0].id]: 10, [orders[1].id]: 5 });
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM call WHERE lead_id = ANY($1)`, [leads]);
    expect(n).toBe(15);
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM dialer_claim WHERE lead_id = ANY($1)`, [leads]))[0].n).toBe(0);
    expect(lines.at(-1)).toMatch(/^round 4 \| claimed 15 \| refused 0 \| calls 15 \(.+\) \| per order #\d+: \d+ #\d+: \d+$/);
  });
});
