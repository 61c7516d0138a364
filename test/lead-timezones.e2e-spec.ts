import { DateTime, IANAZone } from 'luxon';
import { nextCallableAt } from '../src/modules/orders/domain/callable-time';
import request from 'supertest';
import { createLead, createLeadOrder, TestOrder } from './factories/leads';
import { createCallAttemptGroup, createSipEndpoint, createUser } from './factories/reference';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { createTestApp, TestApp } from './support/test-app';

/** A lead's IANA zone, its resolution order, and planning in the zone's real rules. */
describe('lead time zones', () => {
  let t: TestApp;
  const post = (path: string, body: unknown) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', t.apiKey)
      .send(body as object);
  const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey);
  const detail = async (id: number) => (await get(`/v2/lead/detail/${id}/`).expect(200)).body.data;
  const leadCount = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM lead`))[0].n as number;
  /** Every day 09:00-09:01 local: the planned call is the next local 09:00, to the minute. */
  const nineOClock = Array.from({ length: 7 }, () => ['09:00', '09:01']);
  /** The next 09:00 in `zone` at or after `now` (or `now` inside 09:00-09:01), computed with luxon apart from the service. */
  const nextNine = (zone: string, now: Date) => {
    const local = DateTime.fromJSDate(now, { zone });
    let nine = local.set({ hour: 9, minute: 0, second: 0, millisecond: 0 });
    if (local >= nine.plus({ minutes: 1 })) nine = nine.plus({ days: 1 }).set({ hour: 9, minute: 0 });
    return local >= nine ? now : nine.toJSDate();
  };
  let order: TestOrder;

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    order = await createLeadOrder(t, { schedule: nineOClock, defaultUtcOffset: 3 });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['Asia/Kolkata', 30, 5],
    ['Asia/Kathmandu', 15, 5],
    ['America/St_Johns', 30, null],
    ['Pacific/Chatham', 15, null],
  ])('plans a lead in %s at 09:00 local, to the minute (UTC minute %d); utcOffset truncated toward zero', async (zone, utcMinute, offset) => {
    const before = new Date();
    const id = await createLead(t, order, { timeZone: zone });
    const after = new Date();
    const lead = await detail(id);
    expect(lead.timeZone).toBe(zone);
    const planned = new Date(lead.planningCallDateTime);
    // Between the plans for the instants before and after the request (equal unless 09:00 passed meanwhile).
    expect([nextNine(zone, before).getTime(), nextNine(zone, after).getTime()]).toContain(Math.floor(planned.getTime() / 60_000) * 60_000);
    if (planned.getTime() > after.getTime()) {
      expect(planned.getUTCMinutes()).toBe(utcMinute);
      expect(DateTime.fromJSDate(planned, { zone }).toFormat('HH:mm')).toBe('09:00');
    }
    const current = Math.trunc(DateTime.now().setZone(zone).offset / 60);
    expect(lead.utcOffset).toBe(offset ?? current);
    expect(lead.utcOffset).toBe(current);
  });

  it('resolves the zone: timeZone sent, else utcOffset sent, else a single-zone phone country, else the order zone, else its offset', async () => {
    const zoned = await createLeadOrder(t, { schedule: nineOClock, defaultUtcOffset: 3 });
    await post(`/v2/order/update/${zoned.id}/`, { defaultTimeZone: 'Europe/London' }).expect(200);
    // Both sent: the zone wins.
    expect((await detail(await createLead(t, zoned, { timeZone: 'Asia/Kolkata', utcOffset: 2 }))).timeZone).toBe('Asia/Kolkata');
    // A fixed offset: no zone.
    const fixed = await detail(await createLead(t, zoned, { utcOffset: -4 }));
    expect([fixed.timeZone, fixed.utcOffset]).toEqual([null, -4]);
    // India has one zone; Belarus too.
    expect((await detail(await createLead(t, zoned, { phone: '+919812345678' }))).timeZone).toBe('Asia/Kolkata');
    expect((await detail(await createLead(t, zoned, { phone: '+375291234599' }))).timeZone).toBe('Europe/Minsk');
    // Russia has many zones: the order's zone.
    expect((await detail(await createLead(t, zoned, { phone: '+79161112233' }))).timeZone).toBe('Europe/London');
    // An order without a zone: its fixed offset.
    const plain = await detail(await createLead(t, order, { phone: '+79161112234' }));
    expect([plain.timeZone, plain.utcOffset]).toEqual([null, 3]);
    // The order shows its zone; null clears it.
    expect((await get(`/v2/order/detail/${zoned.id}/`).expect(200)).body.data.defaultTimeZone).toBe('Europe/London');
    await post(`/v2/order/update/${zoned.id}/`, { defaultTimeZone: null }).expect(200);
    expect((await get(`/v2/order/detail/${zoned.id}/`).expect(200)).body.data.defaultTimeZone).toBeNull();
  });

  it('refuses an unknown zone with 400 naming the field, and changes nothing', async () => {
    const before = await leadCount();
    for (const timeZone of ['Mars/Olympus_Mons', '+05:30', '', 'x'.repeat(65), 42]) {
      const res = await post('/v2/lead/create/', { leadType: 'straight', phone: '+79161112299', orderId: order.id, orderCode: order.code, timeZone }).expect(
        400,
      );
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain('timeZone');
    }
    expect(await leadCount()).toBe(before);
    const id = await createLead(t, order, { timeZone: 'Asia/Kathmandu' });
    const res = await post(`/v2/lead/update/${id}/`, { timeZone: 'Europe/Atlantis' }).expect(400);
    expect(res.body.data.errors[0].field).toBe('timeZone');
    expect((await detail(id)).timeZone).toBe('Asia/Kathmandu');
    const o = await post(`/v2/order/update/${order.id}/`, { defaultTimeZone: 'Nowhere/City' }).expect(400);
    expect(o.body.data.errors[0].field).toBe('defaultTimeZone');
  });

  it('updates the zone and replans; utcOffset clears it; lists show it', async () => {
    const id = await createLead(t, order, { utcOffset: 3 });
    await post(`/v2/lead/update/${id}/`, { timeZone: 'asia/kolkata' }).expect(200);
    let lead = await detail(id);
    expect(lead.timeZone).toBe('Asia/Kolkata');
    const planned = new Date(lead.planningCallDateTime);
    if (planned.getTime() > Date.now()) expect(DateTime.fromJSDate(planned, { zone: 'Asia/Kolkata' }).toFormat('HH:mm')).toBe('09:00');
    const list = (await get(`/v2/lead/?orderIds[]=${order.id}&limit=100`).expect(200)).body.data.list;
    expect(list.find((l: { id: number }) => l.id === id).timeZone).toBe('Asia/Kolkata');
    await post(`/v2/lead/update/${id}/`, { utcOffset: -2 }).expect(200);
    lead = await detail(id);
    expect([lead.timeZone, lead.utcOffset]).toEqual([null, -2]);
  });

  it("a batch create stores each item's zone, resolved as a single create does", async () => {
    const res = await post('/v2/lead/create-batch/', {
      leads: [
        { leadType: 'straight', phone: '+79161234001', orderId: order.id, orderCode: order.code, timeZone: 'Asia/Kathmandu' },
        { leadType: 'straight', phone: '+919812340002', orderId: order.id, orderCode: order.code },
        { leadType: 'straight', phone: '+79161234003', orderId: order.id, orderCode: order.code, timeZone: 'Nowhere/Land' },
      ],
    }).expect(200);
    const [a, b, c] = res.body.data.results;
    expect([a.success, b.success, c.success]).toEqual([true, true, false]);
    expect(c.errors.map((e: { field: string }) => e.field)).toContain('timeZone');
    expect((await detail(a.id)).timeZone).toBe('Asia/Kathmandu');
    expect((await detail(b.id)).timeZone).toBe('Asia/Kolkata');
  });

  describe('redial on the days DST starts and ends (America/New_York)', () => {
    let ny: TestOrder;
    let sipId: number;
    let userId: number;
    let noAnswer: number;
    let telephonyKey: string;
    let seq = 0;

    beforeAll(async () => {
      telephonyKey = await t.keyWith('telephony');
      userId = await createUser(t, { accessGroup: 'call-center', name: 'Agent' });
      sipId = await createSipEndpoint(t);
      const group = await createCallAttemptGroup(t, { intervals: [60], repeatLastInterval: true, resetAttemptsEnabled: false });
      const res = await post('/v2/order/create/', {
        serviceTitle: 'dst',
        title: 'DST test',
        status: 'info',
        sipEndpointIds: [sipId],
        callAttemptGroupId: group,
        callSchedule: Array.from({ length: 7 }, () => ['09:00', '18:00']),
      }).expect(200);
      ny = { id: res.body.data.id, code: (await get(`/v2/order/detail/${res.body.data.id}/`)).body.data.code };
      noAnswer = (await t.ds.query(`SELECT id FROM call_status WHERE category = 'not-answered' AND NOT is_callback ORDER BY id LIMIT 1`))[0].id;
    });

    const redialAfter = async (startedAt: string) => {
      const leadId = await createLead(t, ny, { timeZone: 'America/New_York' });
      await request(t.http)
        .post('/v2/call/create/')
        .set('X-Api-Key', telephonyKey)
        .send({
          leadId,
          orderId: ny.id,
          platformCallId: `dst-${++seq}`,
          sipEndpointId: sipId,
          userId,
          statusId: noAnswer,
          direction: 'outgoing',
          totalDurationSeconds: 0,
          waitTimeDurationSeconds: 0,
          talkTimeDurationSeconds: 0,
          startedAt,
        })
        .expect(200);
      return (await detail(leadId)).planningCallDateTime as string;
    };

    it("plans the redial in the lead's own zone's window (09:00-18:00 New York, DST included), never before now", async () => {
      // Its hour's interval was due ten minutes ago: the first moment of the window from now, in New York's rules.
      const planned = new Date(await redialAfter(new Date(Date.now() - 70 * 60_000).toISOString()));
      const window = {
        schedule: Array.from({ length: 7 }, () => ['09:00', '18:00'] as [string, string]),
        holidays: [],
        zone: IANAZone.create('America/New_York'),
      };
      const from = nextCallableAt({ now: new Date(Date.now() - 60_000), ...window })!;
      expect(planned.getTime()).toBeGreaterThanOrEqual(Math.floor(from.getTime() / 1000) * 1000);
      expect(nextCallableAt({ now: planned, ...window })).toEqual(planned);
    });
  });
});

describe('demo dataset: leads of fractional and DST zones', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.get(DemoSeeder).run();
  });
  afterAll(async () => {
    await t.close();
  });

  it('has leads in Kolkata, Kathmandu, St. John’s, New York, Lord Howe and Chatham, each planned inside its window in real local time', async () => {
    const rows: { zone: string; n: number }[] = await t.ds.query(
      `SELECT time_zone AS zone, count(*)::int AS n FROM lead WHERE time_zone IS NOT NULL GROUP BY 1`,
    );
    const zones = new Set(rows.map((r) => r.zone));
    for (const z of ['Asia/Kolkata', 'Asia/Kathmandu', 'America/St_Johns', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Chatham'])
      expect(zones).toContain(z);
    const planned: { zone: string; at: Date; schedule: [string, string][]; ignore: boolean }[] = await t.ds.query(
      `SELECT l.time_zone AS zone, l.planning_call_at AS at, o.call_schedule AS schedule, o.ignore_lead_timezone AS ignore
         FROM lead l JOIN call_order o ON o.id = l.order_id WHERE l.time_zone IS NOT NULL AND l.planning_call_at IS NOT NULL`,
    );
    expect(planned.length).toBeGreaterThan(5);
    for (const p of planned.filter((x) => !x.ignore)) {
      const local = DateTime.fromJSDate(p.at, { zone: p.zone });
      const window = p.schedule[local.weekday - 1];
      expect(window).toHaveLength(2);
      // "HH:mm" strings compare as times ("24:00" ends the day).
      expect(local.toFormat('HH:mm') >= window[0] && local.toFormat('HH:mm') < window[1]).toBe(true);
    }
  });
});
