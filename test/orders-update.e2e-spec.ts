import { OrdersService } from '../src/modules/orders/orders.service';
import { createOrderCustomFields, fullOrderBody, omit, OrderCustomFields } from './factories/order-bodies';
import { createOrder, insertOrderReferences, minimalOrderBody, OrderRefs, orderTableCounts } from './factories/orders';
import { orderRequests } from './support/api-requests';
import { createTestApp, TestApp } from './support/test-app';

/** POST /v2/order/update/{id}/: partial changes, member sets, rejections that change nothing; the settings leads read. */

describe('orders', () => {
  let t: TestApp;
  let refs: OrderRefs;
  let cf: OrderCustomFields;
  const { post, detail } = orderRequests(() => t);
  const fullBody = () => fullOrderBody(refs, cf);

  beforeAll(async () => {
    t = await createTestApp();
    refs = await insertOrderReferences(t.ds);
    cf = await createOrderCustomFields(t);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('update', () => {
    let id: number;
    beforeEach(async () => {
      id = await createOrder(t, { ...fullBody(), code: `upd-${Math.random().toString(36).slice(2, 10)}` });
    });

    const without = (o: Record<string, unknown>, ...keys: string[]) => omit(o, 'updatedAt', ...keys);

    it('answers data [] and changes only the fields sent', async () => {
      const before = await detail(id);
      const res = await post(`/v2/order/update/${id}/`, { title: 'Новое название' }).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: [] });
      const after = await detail(id);
      expect(after.title).toBe('Новое название');
      expect(without(after, 'title')).toEqual(without(before, 'title'));
      expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
      expect(after.code).toBe(before.code);
    });

    it('accepts an empty body (nothing changes) and the path without trailing slash', async () => {
      const before = await detail(id);
      await post(`/v2/order/update/${id}`, {}).expect(200);
      expect(await detail(id)).toEqual(before);
    });

    it('replaces only the member sets sent', async () => {
      const before = await detail(id);
      await post(`/v2/order/update/${id}/`, { agentUserIds: [refs.users[1]], transferNumbers: [{ number: '999', names: { gb: 'Night shift' } }] }).expect(200);
      const after = await detail(id);
      expect(after.agentUserIds).toEqual([refs.users[1]]);
      expect(after.transferNumbers).toEqual([{ number: '999', names: { gb: 'Night shift' } }]);
      expect(after.agentGroupIds).toEqual(before.agentGroupIds);
      expect(after.sipEndpointIds).toEqual(before.sipEndpointIds);

      await post(`/v2/order/update/${id}/`, { agentUserIds: [], agentGroupIds: [], transferNumbers: [], sipEndpointIds: [refs.sips[2]] }).expect(200);
      const cleared = await detail(id);
      expect(cleared).toMatchObject({ agentUserIds: [], agentGroupIds: [], transferNumbers: [], sipEndpointIds: [refs.sips[2]] });
    });

    it('updates scalars, clears nullable ones, pads a short schedule, replaces holidays and custom values', async () => {
      await post(`/v2/order/update/${id}/`, {
        status: 'secondary',
        code: `renamed-${id}`,
        callSchedule: [['10:00', '19:00']],
        callHolidayOverrides: ['31 декабря 2026'],
        aiDefaultLanguage: null,
        qualifiedLeadsPerDayLimit: null,
        callAttemptGroupId: refs.defaultAttemptGroup,
        autoDialingEnabled: false,
        defaultUtcOffset: -5,
        customValues: { [cf.niche]: 'medicine' },
        agentLeadEditMode: 'never',
      }).expect(200);
      expect(await detail(id)).toMatchObject({
        status: 'secondary',
        code: `renamed-${id}`,
        callSchedule: [['10:00', '19:00'], [], [], [], [], [], []],
        callHolidayOverrides: ['31.12.2026'],
        aiDefaultLanguage: null,
        qualifiedLeadsPerDayLimit: null,
        callAttemptGroupId: refs.defaultAttemptGroup,
        autoDialingEnabled: false,
        defaultUtcOffset: -5,
        customValues: { [cf.niche]: 'medicine' },
        agentLeadEditMode: 'never',
      });
      await post(`/v2/order/update/${id}/`, { qualifiedLeadsPerDayLimit: 5, aiDefaultLanguage: 'gb', callHolidayOverrides: [], customValues: {} }).expect(200);
      expect(await detail(id)).toMatchObject({ qualifiedLeadsPerDayLimit: 5, aiDefaultLanguage: 'gb', callHolidayOverrides: [], customValues: {} });
    });

    const rejections: [string, () => Record<string, unknown>, string | (() => string)][] = [
      ['empty sipEndpointIds', () => ({ title: 'X', sipEndpointIds: [] }), 'sipEndpointIds'],
      ['null title', () => ({ title: null }), 'title'],
      ['null status', () => ({ status: null }), 'status'],
      ['null sipEndpointIds', () => ({ sipEndpointIds: null }), 'sipEndpointIds'],
      ['null callAttemptGroupId', () => ({ callAttemptGroupId: null }), 'callAttemptGroupId'],
      ['an unknown status', () => ({ title: 'X', status: 'archived' }), 'status'],
      ['a bad code', () => ({ title: 'X', code: 'Bad Code' }), 'code'],
      ['a bad schedule', () => ({ title: 'X', callSchedule: [['09:00', '09:00']] }), 'callSchedule'],
      ['a bad holiday', () => ({ title: 'X', callHolidayOverrides: ['nope'] }), 'callHolidayOverrides'],
      ['an unknown agent', () => ({ title: 'X', agentUserIds: [999999] }), 'agentUserIds'],
      ['an unknown scenario', () => ({ title: 'X', callScenarioId: 999999 }), 'callScenarioId'],
      ['a bad custom value', () => ({ title: 'X', customValues: { [cf.launch]: 'soon' } }), () => `customValues.${cf.launch}`],
      ['a transfer number with spaces', () => ({ title: 'X', transferNumbers: [{ number: '8 800' }] }), 'transferNumbers.0.number'],
    ];

    it.each(rejections)('rejects %s with 400 and changes nothing', async (_name, body, field) => {
      const before = await detail(id);
      const counts = await orderTableCounts(t.ds);
      const res = await post(`/v2/order/update/${id}/`, body()).expect(400);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(typeof field === 'function' ? field() : field);
      expect(await detail(id)).toEqual(before);
      expect(await orderTableCounts(t.ds)).toEqual(counts);
    });

    it('answers 409 when the new code is taken, changing nothing', async () => {
      const other = await createOrder(t, minimalOrderBody(refs, { code: `taken-${id}` }));
      const before = await detail(id);
      const res = await post(`/v2/order/update/${id}/`, { code: `taken-${id}`, title: 'Changed', agentUserIds: [] }).expect(409);
      expect(res.body).toEqual({ success: false, message: expect.any(String), data: [] });
      expect(await detail(id)).toEqual(before);
      expect((await detail(other)).code).toBe(`taken-${id}`);
    });

    it('keeps its own code without conflict', async () => {
      const { code } = await detail(id);
      await post(`/v2/order/update/${id}/`, { code, title: 'Same code' }).expect(200);
    });

    it('answers 404 for an unknown order', async () => {
      const res = await post('/v2/order/update/999999/', { title: 'X' }).expect(404);
      expect(res.body).toEqual({ success: false, message: expect.any(String), data: [] });
    });
  });

  describe('getOrderSettings (for leads)', () => {
    it('returns the settings, sees its own updates at once, and null for an unknown order', async () => {
      const svc = t.app.get(OrdersService);
      const id = await createOrder(t, {
        ...fullBody(),
        code: 'settings-order',
        callHolidayOverrides: ['08.03.2027', '01.01.2027'],
      });
      expect(await svc.getOrderSettings(id)).toEqual({
        id,
        clientId: null,
        code: 'settings-order',
        callSchedule: [['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['10:00', '18:00'], []],
        holidays: ['2027-01-01', '2027-03-08'],
        ignoreLeadTimezone: true,
        defaultUtcOffset: 3,
        qualifiedLeadsPerDayLimit: 60,
        consentRequired: false,
        maxAttemptsPerDay: null,
        redialRules: [],
        callAttemptGroupId: refs.otherAttemptGroup,
      });
      // a change behind the service's back is served from the cache (bounded by the TTL) ...
      await t.ds.query(`UPDATE call_order SET default_utc_offset = 5 WHERE id = $1`, [id]);
      expect((await svc.getOrderSettings(id))!.defaultUtcOffset).toBe(3);
      // ... while this instance's own update is seen at once
      await post(`/v2/order/update/${id}/`, { qualifiedLeadsPerDayLimit: null, ignoreLeadTimezone: false }).expect(200);
      expect(await svc.getOrderSettings(id)).toMatchObject({ defaultUtcOffset: 5, qualifiedLeadsPerDayLimit: null, ignoreLeadTimezone: false });
      expect(await svc.getOrderSettings(999999)).toBeNull();
    });
  });
});
