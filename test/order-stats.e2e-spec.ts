import request from 'supertest';
import { createLead, createLeadOrder } from './factories/leads';
import { callStatusId, recordCall } from './factories/calls';
import { createTestApp, TestApp } from './support/test-app';

/** GET /v2/order/stats/{orderId}/: live figures from counters and indexed ranges. */
describe('order stats', () => {
  let t: TestApp;
  const post = (path: string, body: unknown, key = t.apiKey) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', key)
      .send(body as object);
  const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey);
  const stats = async (id: number) => (await get(`/v2/order/stats/${id}/`).expect(200)).body.data;

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts after creates, a qualified update, a call and a later planned call', async () => {
    const o = await createLeadOrder(t, { qualifiedLimit: 5 });
    await post(`/v2/order/update/${o.id}/`, { autoDialingEnabled: true, defaultTimeZone: 'Asia/Kathmandu' }).expect(200);
    const empty = await stats(o.id);
    expect(empty).toEqual({
      orderId: o.id,
      asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/),
      leads: { total: 0, byCategory: { 'in-progress': 0, qualified: 0, rejected: 0, closed: 0 } },
      callableNow: 0,
      dueWithinHour: 0,
      attemptsToday: 0,
      qualifiedToday: 0,
      qualifiedLeadsPerDayLimit: 5,
    });

    // "Any time" schedule: each lead's first call is planned at its creation, so it is due at once.
    const [a, b, c] = [await createLead(t, o), await createLead(t, o), await createLead(t, o)];
    let s = await stats(o.id);
    expect([s.leads.total, s.leads.byCategory['in-progress'], s.callableNow, s.dueWithinHour]).toEqual([3, 3, 3, 0]);

    await post(`/v2/lead/update/${a}/`, { statusId: 10 }).expect(200); // qualified
    await post(`/v2/lead/update/${b}/`, { statusId: 20 }).expect(200); // rejected
    // c's next call in 30 minutes (v1 call_timestamp): no longer due, due within the hour.
    await post(`/v1/lead/update/${c}/`, { call_timestamp: Math.floor(Date.now() / 1000) + 1800 }).expect(200);
    await recordCall(t, {
      leadId: b,
      orderId: o.id,
      platformCallId: `stats-${b}`,
      statusId: await callStatusId(t, 'not-answered'),
      totalDurationSeconds: 30,
      waitTimeDurationSeconds: 30,
      talkTimeDurationSeconds: 0,
      startedAt: new Date(Date.now() - 60_000),
    });

    s = await stats(o.id);
    expect(s.leads).toEqual({ total: 3, byCategory: { 'in-progress': 1, qualified: 1, rejected: 1, closed: 0 } });
    expect(s.qualifiedToday).toBe(1);
    expect(s.attemptsToday).toBe(1);
    expect(s.dueWithinHour).toBe(1);
    // a is due (its call was planned at creation), b's redial is planned later by the call, c in 30 minutes.
    const due: { n: number }[] = await t.ds.query(`SELECT count(*)::int AS n FROM lead WHERE order_id = $1 AND planning_call_at <= now()`, [o.id]);
    expect(s.callableNow).toBe(due[0].n);
    // The counters agree with the table after compaction too.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await stats(o.id)).leads.total).toBe(3);

    // The order stops dialing: nothing is callable.
    await post(`/v2/order/update/${o.id}/`, { autoDialingEnabled: false }).expect(200);
    expect((await stats(o.id)).callableNow).toBe(0);
  });

  it('callableNow is 0 once the qualified limit is reached today', async () => {
    const o = await createLeadOrder(t, { qualifiedLimit: 1 });
    await post(`/v2/order/update/${o.id}/`, { autoDialingEnabled: true }).expect(200);
    const [a] = [await createLead(t, o), await createLead(t, o)];
    expect((await stats(o.id)).callableNow).toBe(2);
    await post(`/v2/lead/update/${a}/`, { statusId: 10 }).expect(200);
    const s = await stats(o.id);
    expect([s.qualifiedToday, s.qualifiedLeadsPerDayLimit, s.callableNow]).toEqual([1, 1, 0]);
  });

  it('answers 404 for an unknown order and 400 for a bad id', async () => {
    await get('/v2/order/stats/99999999/').expect(404);
    await get('/v2/order/stats/0/').expect(400);
  });
});
