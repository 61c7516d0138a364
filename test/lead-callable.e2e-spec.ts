import { DateTime } from 'luxon';
import request from 'supertest';
import { ANY_TIME, createLead, createLeadOrder, TestOrder } from './factories/leads';
import { callStatusId, recordCall } from './factories/calls';
import { createTestApp, TestApp } from './support/test-app';

/** GET /v2/lead/callable/{leadId}/: each reason code from a real setup. */
describe('why a lead is not callable', () => {
  let t: TestApp;
  const ZONE = 'Asia/Kolkata';
  const post = (path: string, body: unknown, key = t.apiKey) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', key)
      .send(body as object);
  const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey);
  const callable = async (id: number) => (await get(`/v2/lead/callable/${id}/`).expect(200)).body.data;
  /** An order created through SQL with autodialing on (through the API). */
  const dialingOrder = async (opts: Parameters<typeof createLeadOrder>[1] = {}): Promise<TestOrder> => {
    const o = await createLeadOrder(t, opts);
    await post(`/v2/order/update/${o.id}/`, { autoDialingEnabled: true }).expect(200);
    return o;
  };
  const localNow = () => DateTime.now().setZone(ZONE);

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is callable with no reasons: at, localTime in the lead zone, timeZone, utcOffset, nextCallableAt', async () => {
    const o = await dialingOrder();
    const id = await createLead(t, o, { timeZone: ZONE });
    const before = Date.now();
    const c = await callable(id);
    expect(c).toEqual({
      callableNow: true,
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/),
      localTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/),
      timeZone: ZONE,
      utcOffset: 5,
      reasons: [],
      nextCallableAt: expect.any(String),
    });
    expect(Date.parse(c.localTime)).toBe(Date.parse(c.at));
    expect(Math.abs(Date.parse(c.at) - before)).toBeLessThan(60_000);
    expect(Date.parse(c.nextCallableAt)).toBeLessThanOrEqual(Date.parse(c.at) + 1000);
  });

  it('no_schedule (all seven days off): nothing planned, nothing next', async () => {
    const o = await dialingOrder({ schedule: [[], [], [], [], [], [], []] });
    const c = await callable(await createLead(t, o, { timeZone: ZONE }));
    expect(c.reasons).toEqual(['no_schedule', 'day_off', 'dialing_stopped']);
    expect([c.callableNow, c.nextCallableAt]).toEqual([false, null]);
  });

  it("day_off: today (the lead's local day) has no window", async () => {
    const schedule = ANY_TIME.map((w, i) => (i === localNow().weekday - 1 ? [] : w));
    const c = await callable(await createLead(t, await dialingOrder({ schedule }), { timeZone: ZONE }));
    expect(c.reasons).toEqual(['day_off']);
    // The next day at local midnight.
    expect(DateTime.fromISO(c.nextCallableAt).setZone(ZONE).toFormat('HH:mm')).toBe('00:00');
  });

  it("holiday: today, in the lead's zone, is a holiday of the order", async () => {
    const today = localNow().toISODate()!;
    const c = await callable(await createLead(t, await dialingOrder({ holidays: [today] }), { timeZone: ZONE }));
    expect(c.reasons).toEqual(['holiday']);
    expect(DateTime.fromISO(c.nextCallableAt).setZone(ZONE).toISODate()).not.toBe(today);
  });

  it('outside_hours: today has a window and now is outside it', async () => {
    const window = localNow().hour < 12 ? ['23:00', '23:59'] : ['00:00', '00:01'];
    const c = await callable(await createLead(t, await dialingOrder({ schedule: ANY_TIME.map(() => window) }), { timeZone: ZONE }));
    expect(c.reasons).toEqual(['outside_hours']);
    expect(DateTime.fromISO(c.nextCallableAt).setZone(ZONE).toFormat('HH:mm')).toBe(window[0]);
  });

  it('not_yet_due: inside hours but the planned call is later', async () => {
    const id = await createLead(t, await dialingOrder(), { timeZone: ZONE });
    const later = Math.floor(Date.now() / 1000) + 1800;
    await post(`/v1/lead/update/${id}/`, { call_timestamp: later }).expect(200);
    const c = await callable(id);
    expect(c.reasons).toEqual(['not_yet_due']);
    expect(Date.parse(c.nextCallableAt)).toBe(later * 1000);
  });

  it('dialing_stopped: an answered call stopped the dialing', async () => {
    const o = await dialingOrder();
    const id = await createLead(t, o, { timeZone: ZONE });
    await recordCall(t, {
      leadId: id,
      orderId: o.id,
      platformCallId: `callable-${id}`,
      statusId: await callStatusId(t, 'answered'),
      totalDurationSeconds: 30,
      waitTimeDurationSeconds: 5,
      talkTimeDurationSeconds: 20,
      startedAt: new Date(Date.now() - 120_000),
    });
    const c = await callable(id);
    expect(c.reasons).toEqual(['dialing_stopped']);
    expect(c.nextCallableAt).toBeNull();
  });

  it('order_autodialing_disabled', async () => {
    const o = await dialingOrder();
    const id = await createLead(t, o, { timeZone: ZONE });
    await post(`/v2/order/update/${o.id}/`, { autoDialingEnabled: false }).expect(200);
    const c = await callable(id);
    expect(c.reasons).toEqual(['order_autodialing_disabled']);
    expect(c.nextCallableAt).toBeNull();
  });

  it("qualified_limit_reached: the order's qualified leads today reached the limit", async () => {
    const o = await dialingOrder({ qualifiedLimit: 1 });
    const [a, b] = [await createLead(t, o, { timeZone: ZONE }), await createLead(t, o, { timeZone: ZONE })];
    expect((await callable(b)).callableNow).toBe(true);
    await post(`/v2/lead/update/${a}/`, { statusId: 10 }).expect(200);
    const c = await callable(b);
    expect(c.reasons).toEqual(['qualified_limit_reached']);
    // Not before the order's next day (UTC, its default offset 0).
    expect(Date.parse(c.nextCallableAt)).toBe(Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) + 86_400_000);
  });

  it('a lead with a fixed offset: timeZone null, localTime at that offset', async () => {
    const c = await callable(await createLead(t, await dialingOrder(), { utcOffset: -4 }));
    expect([c.timeZone, c.utcOffset]).toEqual([null, -4]);
    expect(c.localTime).toMatch(/-04:00$/);
  });

  it('answers 404 for an unknown lead and 400 for a bad id', async () => {
    await get('/v2/lead/callable/99999999/').expect(404);
    await get('/v2/lead/callable/abc/').expect(400);
  });
});
