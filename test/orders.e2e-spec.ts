import request from 'supertest';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { OrdersService } from '../src/modules/orders/orders.service';
import {
  OrderRefs,
  createOrder,
  insertAgentGroup,
  insertCallAttemptGroup,
  insertCallScenario,
  insertOrderReferences,
  insertSipEndpoint,
  insertUser,
  minimalOrderBody,
  orderTableCounts,
} from './factories/orders';
import { createTestApp, TestApp } from './support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

describe('orders', () => {
  let t: TestApp;
  let refs: OrderRefs;
  const cf: Record<string, number> = {};

  const post = (path: string, body: unknown, key = t.apiKey) => request(t.http).post(path).set('X-Api-Key', key).send(body as object);
  const get = (path: string, key = t.apiKey) => request(t.http).get(path).set('X-Api-Key', key);
  const detail = async (id: number) => (await get(`/v2/order/detail/${id}/`).expect(200)).body.data;

  beforeAll(async () => {
    t = await createTestApp();
    refs = await insertOrderReferences(t.ds);
    const field = async (key: string, body: object) => {
      cf[key] = (await post('/v2/custom-field/create/', body).expect(200)).body.data.id;
    };
    await field('manager', { title: 'Менеджер клиента', type: 'string', essence: 'orders' });
    await field('plan', { title: 'План лидов', type: 'int', essence: 'orders' });
    await field('launch', { title: 'Дата запуска', type: 'date', essence: 'orders' });
    await field('niche', { title: 'Ниша', type: 'select', essence: 'orders', params: [{ code: 'real_estate', title: 'Недвижимость' }, { code: 'medicine', title: 'Медицина' }] });
    await field('langs', { title: 'Языки', type: 'multiselect', essence: 'orders', params: [{ code: 'ru', title: 'Русский' }, { code: 'en', title: 'English' }] });
    await field('leadCity', { title: 'Город', type: 'string', essence: 'leads' });
  });
  afterAll(async () => {
    await t.close();
  });

  const fullBody = () => ({
    code: 'novostroyki-msk',
    serviceTitle: 'ГК «Северный квартал»: квалификация лидов',
    title: 'Новостройки Москвы',
    status: 'success',
    callSchedule: [['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['10:00', '18:00']],
    callHolidayOverrides: ['08.03.2027', '2027-01-01', '1 January 2027', '2027-01-07T10:00:00+03:00'],
    autoDialingEnabled: true,
    predictiveModeEnabled: true,
    aiDefaultLanguage: 'ru',
    amdDetectionEnabled: true,
    callRecordRule: 'agent_is_connected',
    sipEndpointUsageScheme: 'even_loaded_daily',
    agentUserIds: [refs.users[2], refs.users[0], refs.users[2]],
    agentGroupIds: [refs.groups[1], refs.groups[0]],
    showLeadContactsToAgent: false,
    callAttemptGroupId: refs.otherAttemptGroup,
    qualifiedLeadsPerDayLimit: 60,
    callScenarioId: refs.scenario,
    leadTransformEnabled: true,
    speechRecognitionEnabled: true,
    ignoreLeadTimezone: true,
    sipEndpointIds: [refs.sips[1], refs.sips[0], refs.sips[1]],
    customValues: { [cf.manager]: 'Ирина Белова', [cf.plan]: '1200', [cf.launch]: '01.11.2026', [cf.niche]: 'real_estate', [cf.langs]: 'ru, en' },
    agentLeadCreationIsAllowed: true,
    agentLeadEditMode: 'always',
    autoProcessCall: true,
    transferNumbers: [
      { number: '+74951234500', names: { ru: 'Отдел продаж', en: 'Sales' } },
      { number: '701' },
      { number: '+74951234501', names: [] },
    ],
    defaultUtcOffset: 3,
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

  describe('create rejections: 400 with the field named, nothing stored', () => {
    const cases: [string, () => Record<string, unknown>, string | (() => string), RegExp?][] = [
      ['missing serviceTitle', () => omit(minimalOrderBody(refs), 'serviceTitle'), 'serviceTitle'],
      ['missing title', () => omit(minimalOrderBody(refs), 'title'), 'title'],
      ['missing status', () => omit(minimalOrderBody(refs), 'status'), 'status'],
      ['missing sipEndpointIds', () => omit(minimalOrderBody(refs), 'sipEndpointIds'), 'sipEndpointIds'],
      ['empty sipEndpointIds', () => minimalOrderBody(refs, { sipEndpointIds: [] }), 'sipEndpointIds', /must not be empty/],
      ['an empty title', () => minimalOrderBody(refs, { title: '' }), 'title'],
      ['a numeric title', () => minimalOrderBody(refs, { title: 5 }), 'title'],
      ['an unknown status', () => minimalOrderBody(refs, { status: 'active' }), 'status'],
      ['an upper-case code', () => minimalOrderBody(refs, { code: 'Order-1' }), 'code'],
      ['a code with a space', () => minimalOrderBody(refs, { code: 'order 1' }), 'code'],
      ['a Cyrillic code', () => minimalOrderBody(refs, { code: 'заказ' }), 'code'],
      ['an empty code', () => minimalOrderBody(refs, { code: '' }), 'code'],
      ['a 65-character code', () => minimalOrderBody(refs, { code: 'a'.repeat(65) }), 'code'],
      ['8 schedule items', () => minimalOrderBody(refs, { callSchedule: Array(8).fill([]) }), 'callSchedule', /at most 7/],
      ['a malformed time', () => minimalOrderBody(refs, { callSchedule: [['9:00', '18:00']] }), 'callSchedule'],
      ['start after end', () => minimalOrderBody(refs, { callSchedule: [['18:00', '09:00']] }), 'callSchedule', /start must be before end/],
      ['a schedule that is not an array', () => minimalOrderBody(refs, { callSchedule: '09:00-18:00' }), 'callSchedule'],
      ['a null schedule', () => minimalOrderBody(refs, { callSchedule: null }), 'callSchedule'],
      ['an unparsable holiday', () => minimalOrderBody(refs, { callHolidayOverrides: ['2027-01-01', 'someday'] }), 'callHolidayOverrides', /item 1/],
      ['an impossible holiday', () => minimalOrderBody(refs, { callHolidayOverrides: ['30.02.2027'] }), 'callHolidayOverrides'],
      ['a string for a bool', () => minimalOrderBody(refs, { autoDialingEnabled: 'true' }), 'autoDialingEnabled'],
      ['null for a bool', () => minimalOrderBody(refs, { amdDetectionEnabled: null }), 'amdDetectionEnabled'],
      ['an unknown language', () => minimalOrderBody(refs, { aiDefaultLanguage: 'de' }), 'aiDefaultLanguage'],
      ['an unknown callRecordRule', () => minimalOrderBody(refs, { callRecordRule: 'always' }), 'callRecordRule'],
      ['an unknown sipEndpointUsageScheme', () => minimalOrderBody(refs, { sipEndpointUsageScheme: 'round_robin' }), 'sipEndpointUsageScheme'],
      ['an unknown agentLeadEditMode', () => minimalOrderBody(refs, { agentLeadEditMode: 'sometimes' }), 'agentLeadEditMode'],
      ['a zero id in agentUserIds', () => minimalOrderBody(refs, { agentUserIds: [refs.users[0], 0] }), 'agentUserIds'],
      ['a string id in agentGroupIds', () => minimalOrderBody(refs, { agentGroupIds: [String(refs.groups[0])] }), 'agentGroupIds'],
      ['a fractional sip id', () => minimalOrderBody(refs, { sipEndpointIds: [1.5] }), 'sipEndpointIds'],
      ['an id beyond int32', () => minimalOrderBody(refs, { sipEndpointIds: [2147483648] }), 'sipEndpointIds'],
      ['agentUserIds not an array', () => minimalOrderBody(refs, { agentUserIds: refs.users[0] }), 'agentUserIds'],
      ['callAttemptGroupId 0', () => minimalOrderBody(refs, { callAttemptGroupId: 0 }), 'callAttemptGroupId'],
      ['a string callScenarioId', () => minimalOrderBody(refs, { callScenarioId: String(refs.scenario) }), 'callScenarioId'],
      ['qualifiedLeadsPerDayLimit 0', () => minimalOrderBody(refs, { qualifiedLeadsPerDayLimit: 0 }), 'qualifiedLeadsPerDayLimit'],
      ['defaultUtcOffset 15', () => minimalOrderBody(refs, { defaultUtcOffset: 15 }), 'defaultUtcOffset'],
      ['defaultUtcOffset -13', () => minimalOrderBody(refs, { defaultUtcOffset: -13 }), 'defaultUtcOffset'],
      ['a transfer number with a space', () => minimalOrderBody(refs, { transferNumbers: [{ number: '+7 495 123 45 00' }] }), 'transferNumbers.0.number', /spaces/],
      ['a transfer number without number', () => minimalOrderBody(refs, { transferNumbers: [{ names: { ru: 'Отдел' } }] }), 'transferNumbers.0.number'],
      ['a numeric transfer number', () => minimalOrderBody(refs, { transferNumbers: [{ number: 74951234500 }] }), 'transferNumbers.0.number'],
      ['transfer names in an unknown language', () => minimalOrderBody(refs, { transferNumbers: [{ number: '1', names: { de: 'Verkauf' } }] }), 'transferNumbers.0.names.de'],
      ['transfer names not an object', () => minimalOrderBody(refs, { transferNumbers: [{ number: '1', names: 'Sales' }] }), 'transferNumbers.0.names'],
      ['a transfer item that is a string', () => minimalOrderBody(refs, { transferNumbers: ['+74951234500'] }), 'transferNumbers'],
      ['an unknown custom field', () => minimalOrderBody(refs, { customValues: { 999999: 'x' } }), 'customValues.999999'],
      ['a lead custom field', () => minimalOrderBody(refs, { customValues: { [cf.leadCity]: 'Москва' } }), () => `customValues.${cf.leadCity}`, /leads/],
      ['a bad int custom value', () => minimalOrderBody(refs, { customValues: { [cf.plan]: 'many' } }), () => `customValues.${cf.plan}`],
      ['an unknown select option', () => minimalOrderBody(refs, { customValues: { [cf.niche]: 'cars' } }), () => `customValues.${cf.niche}`],
      ['an unknown multiselect option', () => minimalOrderBody(refs, { customValues: { [cf.langs]: 'ru,de' } }), () => `customValues.${cf.langs}`, /de/],
      ['customValues not a map', () => minimalOrderBody(refs, { customValues: 'x' }), 'customValues'],
      ['unknown agents', () => minimalOrderBody(refs, { agentUserIds: [refs.users[0], 999997, 999998] }), 'agentUserIds', /^unknown ids: 999997, 999998$/],
      ['unknown groups', () => minimalOrderBody(refs, { agentGroupIds: [999999] }), 'agentGroupIds', /^unknown ids: 999999$/],
      ['unknown numbers', () => minimalOrderBody(refs, { sipEndpointIds: [refs.sips[0], 999999] }), 'sipEndpointIds', /^unknown ids: 999999$/],
      ['an unknown call attempt group', () => minimalOrderBody(refs, { callAttemptGroupId: 999999 }), 'callAttemptGroupId', /^unknown id: 999999$/],
      ['an unknown call scenario', () => minimalOrderBody(refs, { callScenarioId: 999999 }), 'callScenarioId', /^unknown id: 999999$/],
    ];

    it.each(cases.map(([name, body, field, message]) => [name, body, field, message ?? null] as const))('rejects %s', async (_name, body, field, message) => {
      const before = await orderTableCounts(t.ds);
      const res = await post('/v2/order/create/', body()).expect(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toEqual(expect.any(String));
      const name = typeof field === 'function' ? field() : field;
      const err = (res.body.data.errors as { field: string; message: string }[]).find((e) => e.field === name);
      expect(err).toBeDefined();
      if (message) expect(err!.message).toMatch(message);
      expect(await orderTableCounts(t.ds)).toEqual(before);
    });

    it('reports domain, custom value and reference errors together', async () => {
      const res = await post(
        '/v2/order/create/',
        minimalOrderBody(refs, { callSchedule: [['10:00', '09:00']], customValues: { [cf.plan]: 'x' }, agentUserIds: [999999] }),
      ).expect(400);
      expect(res.body.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(['agentUserIds', 'callSchedule', `customValues.${cf.plan}`].sort());
    });

    it('answers malformed JSON with 400', async () => {
      const res = await request(t.http).post('/v2/order/create/').set('X-Api-Key', t.apiKey).set('Content-Type', 'application/json').send('{"title": ').expect(400);
      expect(res.body).toEqual({ success: false, message: 'Malformed JSON body', data: [] });
    });
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

  describe('list', () => {
    it('walks the pages by id with next and total', async () => {
      const total = (await orderTableCounts(t.ds)).orders;
      expect(total).toBeGreaterThan(5);
      const seen: number[] = [];
      let offset = 0;
      for (;;) {
        const res = await get(`/v2/order/?offset=${offset}&limit=4`).expect(200);
        expect(res.body.success).toBe(true);
        expect(Object.keys(res.body.data).sort()).toEqual(['list', 'next', 'total']);
        const { list, next, total: reported } = res.body.data;
        expect(reported).toBe(total);
        expect(next).toBe(offset + list.length);
        seen.push(...list.map((o: { id: number }) => o.id));
        if (list.length === 0) break;
        expect(list.length).toBeLessThanOrEqual(4);
        offset = next;
      }
      expect(seen).toHaveLength(total);
      expect([...seen].sort((a, b) => a - b)).toEqual(seen);
      const beyond = await get(`/v2/order/?offset=${total + 10}`).expect(200);
      expect(beyond.body.data).toEqual({ list: [], next: total + 10, total });
    });

    it('uses defaults offset 0, limit 50', async () => {
      const res = await get('/v2/order').expect(200);
      const total = (await orderTableCounts(t.ds)).orders;
      expect(res.body.data.list).toHaveLength(Math.min(total, 50));
      expect(res.body.data.next).toBe(Math.min(total, 50));
    });

    it('returns the same Order objects as detail, except customValues [] when empty', async () => {
      const res = await get('/v2/order/?limit=100').expect(200);
      for (const item of res.body.data.list) {
        const d = await detail(item.id);
        if (Object.keys(d.customValues).length === 0) {
          expect(item.customValues).toEqual([]);
          expect({ ...item, customValues: {} }).toEqual(d);
        } else {
          expect(item).toEqual(d);
        }
      }
    });

    it.each(['limit=0', 'limit=101', 'limit=-1', 'offset=-1', 'limit=abc', 'offset=1.5'])('rejects %s with 400', async (q) => {
      const res = await get(`/v2/order/?${q}`).expect(400);
      expect(res.body.success).toBe(false);
    });

    it('loads member sets with a fixed number of queries whatever the page size', async () => {
      // Background work (queue heartbeats, the notification outbox, API-key
      // cache refreshes) shares the DataSource, so only queries on the order
      // tables are counted.
      // Matched on the tables a statement reads (not on column names like order_id, which the
      // counter compactor's statements carry).
      const orderQueries = (calls: unknown[][]) =>
        calls.filter(([sql]) => /\b(FROM|JOIN)\s+(call_order|order_agent|order_agent_group|order_sip_endpoint|order_transfer_number)\b/.test(String(sql)));
      await get('/v2/order/?limit=1').expect(200); // warm the key cache
      const spy = jest.spyOn(t.ds, 'query');
      try {
        await get('/v2/order/?limit=2').expect(200);
        const small = orderQueries(spy.mock.calls).length;
        spy.mockClear();
        await get('/v2/order/?limit=100').expect(200);
        expect(orderQueries(spy.mock.calls)).toHaveLength(small);
        const memberQueries = spy.mock.calls.filter(([sql]) => /FROM order_(agent|agent_group|sip_endpoint|transfer_number) WHERE order_id = ANY/.test(String(sql)));
        expect(memberQueries).toHaveLength(4);
      } finally {
        spy.mockRestore();
      }
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
        code: 'settings-order',
        callSchedule: [['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['10:00', '18:00'], []],
        holidays: ['2027-01-01', '2027-03-08'],
        ignoreLeadTimezone: true,
        defaultUtcOffset: 3,
        qualifiedLeadsPerDayLimit: 60,
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

function omit(o: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  const copy = { ...o };
  for (const k of keys) delete copy[k];
  return copy;
}

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
    const steps = (seeder as unknown as { steps: { name: string }[] }).steps.map((st) => st.name);
    const others = steps.filter((n) => n !== 'custom-fields' && n !== 'orders');
    if (others.length) await s.ds.query(`INSERT INTO demo_seed_step (name) SELECT unnest($1::text[])`, [others]);
    for (const email of ['anna.smirnova@callcenter.example', 'emily.johnson@callcenter.example']) await insertUser(s.ds, { email });
    await insertAgentGroup(s.ds, { ru: 'Продажи', gb: 'Sales' });
    for (const number of ['+74951234567', '+78123456789', '+442071234567']) await insertSipEndpoint(s.ds, number);
    const scenario = await insertCallScenario(s.ds);
    const attempts = await insertCallAttemptGroup(s.ds, { isDefault: true });

    expect(await seeder.run()).toEqual(['custom-fields', 'orders']);

    const fields = (await request(s.http).get('/v2/custom-fields/').set('X-Api-Key', s.apiKey).expect(200)).body.data as { type: string; essence: string }[];
    for (const essence of ['leads', 'orders']) {
      expect(fields.filter((f) => f.essence === essence).map((f) => f.type).sort()).toEqual(
        ['bool', 'date', 'datetime', 'float', 'int', 'multiselect', 'select', 'string'],
      );
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
