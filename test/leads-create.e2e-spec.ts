import { nextCallableAt } from '../src/modules/orders/domain/callable-time';
import { createLead, createLeadOrder, leadBody, testPhone, TestOrder } from './factories/leads';
import { ISO_UTC as ISO, leadRequests } from './support/api-requests';
import { createTestApp, TestApp } from './support/test-app';

/** POST /v2/lead/create/: the stored shape, input checks, the derived offset and first call, idempotent replays. */

const V2_DETAIL_KEYS = [
  'id',
  'name',
  'phone',
  'sourceComment',
  'ip',
  'externalIdCrmA',
  'externalIdCrmB',
  'externalIdCrmC',
  'externalIdCrmD',
  'statusId',
  'leadType',
  'createMethod',
  'source',
  'isSecondary',
  'planningCallDateTime',
  'dialingHold',
  'priority',
  'utcOffset',
  'timeZone',
  'createdAt',
  'updatedAt',
  'orderId',
  'orderCode',
  'socialAId',
  'socialBLogin',
  'messengerUserName',
  'messengerPhone',
  'adCampaignId',
  'customValues',
  'consent',
];

describe('leads: create', () => {
  let t: TestApp;
  let order: TestOrder;
  const { post, get, leadCount, detail } = leadRequests(() => t);

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    order = await createLeadOrder(t, { defaultUtcOffset: 5 });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('create (v2)', () => {
    it('creates a lead and returns its id; detail has the v2 shape with exact types', async () => {
      const res = await post('/v2/lead/create/', {
        leadType: 'selection',
        phone: '79161230001',
        orderId: order.id,
        orderCode: order.code,
        name: 'Анна Петрова',
        sourceComment: '{"rooms":2}',
        externalIdCrmA: 'A-1',
        externalIdCrmD: 'D-1',
        priority: 3,
        source: 'social-a.ads',
        adCampaignId: 'c'.repeat(64),
        messengerUserName: 'anna',
        messengerPhone: '+7 916 123-00-01',
        socialAId: '12345',
        socialBLogin: 'anna.b',
        createdAt: '2001-01-01T00:00:00Z',
        id: 999,
        unknownField: 'ignored',
      }).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: { id: expect.any(Number) } });
      const lead = await detail(res.body.data.id);
      expect(Object.keys(lead).sort()).toEqual([...V2_DETAIL_KEYS].sort());
      expect(lead).toEqual({
        id: res.body.data.id,
        name: 'Анна Петрова',
        phone: '+79161230001',
        sourceComment: '{"rooms":2}',
        ip: '',
        externalIdCrmA: 'A-1',
        externalIdCrmB: '',
        externalIdCrmC: '',
        externalIdCrmD: 'D-1',
        statusId: 1,
        leadType: 'selection',
        createMethod: 'API',
        source: 'social-a.ads',
        isSecondary: false,
        planningCallDateTime: expect.stringMatching(ISO),
        dialingHold: null,
        priority: 3,
        utcOffset: 5, // Russia has several offsets: the order default
        timeZone: null, // Russia has several zones, the order has none: the fixed offset
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        orderId: order.id,
        orderCode: order.code,
        socialAId: '12345',
        socialBLogin: 'anna.b',
        messengerUserName: 'anna',
        messengerPhone: '+79161230001',
        adCampaignId: 'c'.repeat(64),
        customValues: {},
        consent: null,
      });
      expect(lead.createdAt.startsWith('2001')).toBe(false);
      expect(res.body.data.id).not.toBe(999);
    });

    it('works without the trailing slash', async () => {
      const res = await post('/v2/lead/create', leadBody(order)).expect(200);
      await get(`/v2/lead/detail/${res.body.data.id}`).expect(200);
    });

    it('rejects invalid phones with 400 on phone, storing nothing', async () => {
      const before = await leadCount();
      for (const phone of ['89161234567', '+70001234567', '12345', 'not a phone', '+7916123456789012']) {
        const res = await post('/v2/lead/create/', leadBody(order, { phone })).expect(400);
        expect(res.body.success).toBe(false);
        expect(res.body.data.errors).toEqual([{ field: 'phone', message: expect.any(String) }]);
      }
      await post('/v2/lead/create/', leadBody(order, { phone: 79161234567 })).expect(400);
      expect(await leadCount()).toBe(before);
    });

    it('rejects an orderId/orderCode mismatch and an unknown order with 400, storing nothing', async () => {
      const other = await createLeadOrder(t);
      const before = await leadCount();
      const mismatch = await post('/v2/lead/create/', leadBody(order, { orderCode: other.code })).expect(400);
      expect(mismatch.body.data.errors).toEqual([{ field: 'orderCode', message: expect.stringContaining('different order') }]);
      const unknown = await post('/v2/lead/create/', leadBody(order, { orderId: 999999 })).expect(400);
      expect(unknown.body.data.errors).toEqual([{ field: 'orderId', message: expect.stringContaining('does not exist') }]);
      expect(await leadCount()).toBe(before);
    });

    it('accepts only in-progress statuses on create and defaults to the catalogue default', async () => {
      const before = await leadCount();
      const qualified = await post('/v2/lead/create/', leadBody(order, { statusId: 10 })).expect(400);
      expect(qualified.body.data.errors[0]).toEqual({ field: 'statusId', message: expect.stringContaining('in-progress') });
      await post('/v2/lead/create/', leadBody(order, { statusId: 424242 })).expect(400);
      await post('/v2/lead/create/', leadBody(order, { statusId: '2' })).expect(400);
      expect(await leadCount()).toBe(before);
      const id = (await post('/v2/lead/create/', leadBody(order, { statusId: 3 })).expect(200)).body.data.id;
      expect((await detail(id)).statusId).toBe(3);
    });

    it('validates field shapes: adCampaignId length, leadType, source, utcOffset, socialAId, required fields', async () => {
      const before = await leadCount();
      const cases: [Record<string, unknown>, string][] = [
        [{ adCampaignId: 'x'.repeat(65) }, 'adCampaignId'],
        [{ leadType: 'other' }, 'leadType'],
        [{ source: 'tv' }, 'source'],
        [{ utcOffset: 15 }, 'utcOffset'],
        [{ utcOffset: '3' }, 'utcOffset'],
        [{ socialAId: '0' }, 'socialAId'],
        [{ socialAId: 'abc' }, 'socialAId'],
        [{ orderId: 0 }, 'orderId'],
        [{ orderId: '1' }, 'orderId'],
        [{ priority: 1.5 }, 'priority'],
        [{ customValues: 'x' }, 'customValues'],
        [{ name: null }, 'name'],
      ];
      for (const [extra, field] of cases) {
        const res = await post('/v2/lead/create/', leadBody(order, extra)).expect(400);
        expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      for (const missing of ['leadType', 'phone', 'orderId', 'orderCode']) {
        const body: Record<string, unknown> = leadBody(order);
        delete body[missing];
        const res = await post('/v2/lead/create/', body).expect(400);
        expect(res.body.data.errors[0].field).toBe(missing);
      }
      expect(await leadCount()).toBe(before);
    });

    it('validates customValues with the shared validator and stores them normalised', async () => {
      const field = await post('/v2/custom-field/create/', { title: 'Бюджет (тест)', type: 'int', essence: 'leads' }).expect(200);
      const orderField = await post('/v2/custom-field/create/', { title: 'Ниша (тест)', type: 'string', essence: 'orders' }).expect(200);
      const fid = field.body.data.id;
      const bad = await post('/v2/lead/create/', leadBody(order, { customValues: { [fid]: 'lots', [orderField.body.data.id]: 'x', 999999: 1 } })).expect(400);
      expect(bad.body.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(
        [`customValues.${fid}`, `customValues.${orderField.body.data.id}`, 'customValues.999999'].sort(),
      );
      const id = (await post('/v2/lead/create/', leadBody(order, { customValues: { [fid]: '1500000' } })).expect(200)).body.data.id;
      expect((await detail(id)).customValues).toEqual({ [fid]: 1500000 });
      // An update without customValues keeps them; one with customValues replaces the map (as for orders).
      await post(`/v2/lead/update/${id}/`, { name: 'x' }).expect(200);
      expect((await detail(id)).customValues).toEqual({ [fid]: 1500000 });
      await post(`/v2/lead/update/${id}/`, { customValues: { [fid]: 7 } }).expect(200);
      expect((await detail(id)).customValues).toEqual({ [fid]: 7 });
      await post(`/v2/lead/update/${id}/`, { customValues: { [fid]: 'x' } }).expect(400);
      await post(`/v2/lead/update/${id}/`, { customValues: {} }).expect(200);
      expect((await detail(id)).customValues).toEqual({});
    });

    it('derives utcOffset from a single-offset phone country, else the order default; an explicit one wins', async () => {
      const by = await createLead(t, order, { phone: '+375291234567' });
      expect((await detail(by)).utcOffset).toBe(3);
      const ru = await createLead(t, order, { phone: testPhone() });
      expect((await detail(ru)).utcOffset).toBe(5);
      const explicit = await createLead(t, order, { phone: '+375291234568', utcOffset: -4 });
      expect((await detail(explicit)).utcOffset).toBe(-4);
    });

    it('plans the first call inside the schedule in the lead local time, skipping holidays', async () => {
      const schedule = [['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], [], []];
      const today = new Date().toISOString().slice(0, 10);
      const scheduled = await createLeadOrder(t, { schedule, holidays: [today], defaultUtcOffset: 3 });
      const before = new Date();
      const id = await createLead(t, scheduled, { utcOffset: 10 });
      const after = new Date();
      const lead = await detail(id);
      const planned = new Date(lead.planningCallDateTime);
      const expectedLo = nextCallableAt({ now: before, schedule: schedule as never, holidays: [today], utcOffsetHours: 10 })!;
      const expectedHi = nextCallableAt({ now: after, schedule: schedule as never, holidays: [today], utcOffsetHours: 10 })!;
      expect(planned.getTime()).toBeGreaterThanOrEqual(expectedLo.getTime() - 1000);
      expect(planned.getTime()).toBeLessThanOrEqual(expectedHi.getTime() + 1000);
      const local = new Date(planned.getTime() + 10 * 3_600_000);
      expect(local.getUTCHours()).toBeGreaterThanOrEqual(9);
      expect(local.getUTCHours()).toBeLessThan(18);
      expect([0, 6]).not.toContain(local.getUTCDay());

      // ignoreLeadTimezone: planned in the order's offset instead
      const ignoring = await createLeadOrder(t, { schedule, ignoreLeadTimezone: true, defaultUtcOffset: 3 });
      const id2 = await createLead(t, ignoring, { utcOffset: 10 });
      const planned2 = new Date((await detail(id2)).planningCallDateTime);
      const local2 = new Date(planned2.getTime() + 3 * 3_600_000);
      expect(local2.getUTCHours()).toBeGreaterThanOrEqual(9);
      expect(local2.getUTCHours()).toBeLessThan(18);
      expect((await detail(id2)).utcOffset).toBe(10);
    });
  });

  describe('idempotency', () => {
    it('replays a v2 create for the same key and body, 409 for another body, one lead under concurrent retries', async () => {
      const body = leadBody(order);
      const first = await post('/v2/lead/create/', body).set('Idempotency-Key', 'lead-k1').expect(200);
      const replay = await post('/v2/lead/create/', body).set('Idempotency-Key', 'lead-k1').expect(200);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(await leadCount('phone = $1', [body.phone])).toBe(1);
      const other = { ...body, name: 'someone else' };
      const conflict = await post('/v2/lead/create/', other).set('Idempotency-Key', 'lead-k1').expect(409);
      expect(conflict.body.data).toEqual([]);
      expect(await leadCount('phone = $1', [body.phone])).toBe(1);

      const body2 = leadBody(order);
      const all = await Promise.all(Array.from({ length: 6 }, () => post('/v2/lead/create/', body2).set('Idempotency-Key', 'lead-k2')));
      expect(all.map((r) => r.status)).toEqual(Array(6).fill(200));
      expect(new Set(all.map((r) => r.body.data.id)).size).toBe(1);
      expect(await leadCount('phone = $1', [body2.phone])).toBe(1);
    });

    it('replays a v1 create', async () => {
      const body = { lead_type: 'straight', client_phone: testPhone(), order_id: order.id, order_code: order.code };
      const a = await post('/v1/lead/create/', body).set('Idempotency-Key', 'lead-v1-k').expect(200);
      const b = await post('/v1/lead/create/', body).set('Idempotency-Key', 'lead-v1-k').expect(200);
      expect(b.body.data.id).toBe(a.body.data.id);
      await post('/v1/lead/create/', { ...body, client_name: 'x' })
        .set('Idempotency-Key', 'lead-v1-k')
        .expect(409);
      expect(await leadCount('phone = $1', [body.client_phone])).toBe(1);
    });
  });
});
