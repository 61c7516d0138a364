import request from 'supertest';
import { createOrderCustomFields, fullOrderBody, OrderCustomFields } from './factories/order-bodies';
import { createOrder, insertOrderReferences, minimalOrderBody, OrderRefs, orderTableCounts } from './factories/orders';
import { ISO_UTC as ISO, orderRequests } from './support/api-requests';
import { createTestApp, TestApp } from './support/test-app';

/** POST /v2/order/create/ and GET /v2/order/detail/{id}/: every field, defaults, generated codes, access, replays. */

describe('orders', () => {
  let t: TestApp;
  let refs: OrderRefs;
  let cf: OrderCustomFields;
  const { post, get, detail } = orderRequests(() => t);
  const fullBody = () => fullOrderBody(refs, cf);

  beforeAll(async () => {
    t = await createTestApp();
    refs = await insertOrderReferences(t.ds);
    cf = await createOrderCustomFields(t);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('create and read', () => {
    let fullId: number;

    it('creates an order with every field and answers {id}', async () => {
      const before = Date.now();
      const res = await post('/v2/order/create/', fullBody()).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: { id: expect.any(Number) } });
      fullId = res.body.data.id;
      const o = await detail(fullId);
      expect(o).toEqual({
        id: fullId,
        code: 'novostroyki-msk',
        clientId: null,
        serviceTitle: 'ГК «Северный квартал»: квалификация лидов',
        title: 'Новостройки Москвы',
        callSchedule: [['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['10:00', '18:00'], []],
        callHolidayOverrides: ['01.01.2027', '07.01.2027', '08.03.2027'],
        autoDialingEnabled: true,
        predictiveModeEnabled: true,
        aiDefaultLanguage: 'ru',
        amdDetectionEnabled: true,
        callRecordRule: 'agent_is_connected',
        sipEndpointUsageScheme: 'even_loaded_daily',
        agentUserIds: [refs.users[0], refs.users[2]],
        agentGroupIds: [refs.groups[0], refs.groups[1]],
        showLeadContactsToAgent: false,
        callAttemptGroupId: refs.otherAttemptGroup,
        qualifiedLeadsPerDayLimit: 60,
        consentRequired: false,
        maxAttemptsPerDay: null,
        redialRules: [],
        dialWeight: 4,
        callScenarioId: refs.scenario,
        leadTransformEnabled: true,
        status: 'success',
        speechRecognitionEnabled: true,
        ignoreLeadTimezone: true,
        sipEndpointIds: [refs.sips[1], refs.sips[0]],
        customValues: { [cf.manager]: 'Ирина Белова', [cf.plan]: 1200, [cf.launch]: '2026-11-01', [cf.niche]: 'real_estate', [cf.langs]: 'ru,en' },
        agentLeadCreationIsAllowed: true,
        agentLeadEditMode: 'always',
        autoProcessCall: true,
        transferNumbers: [
          { number: '+74951234500', names: { ru: 'Отдел продаж', gb: 'Sales' } },
          { number: '701', names: [] },
          { number: '+74951234501', names: [] },
        ],
        defaultUtcOffset: 3,
        defaultTimeZone: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      expect(Math.abs(Date.parse(o.createdAt) - before)).toBeLessThan(60_000);
    });

    it('applies defaults to a minimal order and generates the code from a Cyrillic title', async () => {
      const id = await createOrder(t, minimalOrderBody(refs, { title: 'Запись в стоматологию «Улыбка»' }));
      const o = await detail(id);
      expect(o).toEqual({
        id,
        code: 'zapis-v-stomatologiyu-ulybka',
        clientId: null,
        serviceTitle: 'Тестовый заказ',
        title: 'Запись в стоматологию «Улыбка»',
        callSchedule: Array.from({ length: 7 }, () => ['09:00', '21:00']), // the default: never "any time" by omission
        callHolidayOverrides: [],
        autoDialingEnabled: false,
        predictiveModeEnabled: false,
        aiDefaultLanguage: null,
        amdDetectionEnabled: false,
        callRecordRule: 'client_is_connected',
        sipEndpointUsageScheme: 'random_default',
        agentUserIds: [],
        agentGroupIds: [],
        showLeadContactsToAgent: true,
        callAttemptGroupId: refs.defaultAttemptGroup,
        qualifiedLeadsPerDayLimit: null,
        consentRequired: false,
        maxAttemptsPerDay: null,
        redialRules: [],
        dialWeight: 1,
        callScenarioId: 0,
        leadTransformEnabled: false,
        status: 'success',
        speechRecognitionEnabled: false,
        ignoreLeadTimezone: false,
        sipEndpointIds: [refs.sips[0]],
        customValues: {},
        agentLeadCreationIsAllowed: false,
        agentLeadEditMode: 'during-call',
        autoProcessCall: false,
        transferNumbers: [],
        defaultUtcOffset: 0,
        defaultTimeZone: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
    });

    it('makes generated codes unique: -2, -3, also under concurrent creates', async () => {
      const body = minimalOrderBody(refs, { title: 'Онлайн-школа: продажи' });
      const first = await createOrder(t, body);
      const second = await createOrder(t, body);
      expect((await detail(first)).code).toBe('onlayn-shkola-prodazhi');
      expect((await detail(second)).code).toBe('onlayn-shkola-prodazhi-2');
      const ids = await Promise.all(Array.from({ length: 6 }, () => createOrder(t, body)));
      const codes = (await Promise.all(ids.map(detail))).map((o) => o.code).sort();
      expect(codes).toEqual(['3', '4', '5', '6', '7', '8'].map((n) => `onlayn-shkola-prodazhi-${n}`).sort());
    });

    it('does not treat _ in a code prefix as a wildcard', async () => {
      await createOrder(t, minimalOrderBody(refs, { code: 'a_b' }));
      const id = await createOrder(t, minimalOrderBody(refs, { title: 'A b' }));
      expect((await detail(id)).code).toBe('a-b');
    });

    it('answers 409 for a duplicate code and stores nothing', async () => {
      const before = await orderTableCounts(t.ds);
      const res = await post('/v2/order/create/', { ...fullBody(), title: 'Другой' }).expect(409);
      expect(res.body).toEqual({ success: false, message: expect.stringContaining('novostroyki-msk'), data: [] });
      expect(await orderTableCounts(t.ds)).toEqual(before);
    });

    it('ignores unknown and read-only fields', async () => {
      const res = await post(
        '/v2/order/create/',
        minimalOrderBody(refs, { id: 999999, createdAt: '2001-01-01T00:00:00Z', updatedAt: '2001-01-01T00:00:00Z', createdBy: 77, updatedBy: 78, foo: 'bar' }),
      ).expect(200);
      const id = res.body.data.id;
      expect(id).not.toBe(999999);
      const o = await detail(id);
      expect(o.createdAt.startsWith('2001')).toBe(false);
      expect(o).not.toHaveProperty('foo');
      const [row] = await t.ds.query(`SELECT created_by, updated_by FROM call_order WHERE id = $1`, [id]);
      expect(row).toEqual({ created_by: 0, updated_by: 0 });
    });

    it('accepts en as gb, PHP-style [] for an empty customValues map, and 24:00 as an end', async () => {
      const id = await createOrder(t, minimalOrderBody(refs, { aiDefaultLanguage: 'en', customValues: [], callSchedule: [[], ['00:00', '24:00']] }));
      const o = await detail(id);
      expect(o.aiDefaultLanguage).toBe('gb');
      expect(o.customValues).toEqual({});
      expect(o.callSchedule).toEqual([[], ['00:00', '24:00'], [], [], [], [], []]);
    });

    it('answers 404 for an unknown order and 400 for bad ids', async () => {
      const res = await get('/v2/order/detail/999999/').expect(404);
      expect(res.body).toEqual({ success: false, message: expect.any(String), data: [] });
      for (const bad of ['0', '-1', 'abc', '2147483648', '99999999999999999999']) {
        const r = await get(`/v2/order/detail/${bad}/`).expect(400);
        expect(r.body.data.errors[0].field).toBe('orderId');
        await post(`/v2/order/update/${bad}/`, { title: 'x' }).expect(400);
      }
      await get(`/v2/order/detail/${fullId}`).expect(200);
    });

    it('requires a key; the api scope is enough', async () => {
      await request(t.http).get(`/v2/order/detail/${fullId}/`).expect(401);
      const apiOnly = await t.keyWith('api');
      await get(`/v2/order/detail/${fullId}/`, apiOnly).expect(200);
      await get('/v2/order/', apiOnly).expect(200);
      await post(`/v2/order/update/${fullId}/`, {}, apiOnly).expect(200);
      await post('/v2/order/create/', minimalOrderBody(refs), apiOnly).expect(200);
      const telephonyOnly = await t.keyWith('telephony');
      await get('/v2/order/', telephonyOnly).expect(403);
    });

    it('replays a create with the same Idempotency-Key', async () => {
      const before = (await orderTableCounts(t.ds)).orders;
      const body = minimalOrderBody(refs, { title: 'Idempotent order' });
      const a = await post('/v2/order/create/', body).set('Idempotency-Key', 'order-create-1').expect(200);
      const b = await post('/v2/order/create/', body).set('Idempotency-Key', 'order-create-1').expect(200);
      expect(b.body.data.id).toBe(a.body.data.id);
      expect((await orderTableCounts(t.ds)).orders).toBe(before + 1);
    });
  });
});
