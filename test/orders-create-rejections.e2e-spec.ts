import request from 'supertest';
import { createOrderCustomFields, omit, OrderCustomFields } from './factories/order-bodies';
import { insertOrderReferences, minimalOrderBody, OrderRefs, orderTableCounts } from './factories/orders';
import { orderRequests } from './support/api-requests';
import { createTestApp, TestApp } from './support/test-app';

/** POST /v2/order/create/ with bad input: 400 naming the field, nothing stored. */

describe('orders', () => {
  let t: TestApp;
  let refs: OrderRefs;
  let cf: OrderCustomFields;
  const { post } = orderRequests(() => t);

  beforeAll(async () => {
    t = await createTestApp();
    refs = await insertOrderReferences(t.ds);
    cf = await createOrderCustomFields(t);
  });
  afterAll(async () => {
    await t.close();
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
      [
        'a transfer number with a space',
        () => minimalOrderBody(refs, { transferNumbers: [{ number: '+7 495 123 45 00' }] }),
        'transferNumbers.0.number',
        /spaces/,
      ],
      ['a transfer number without number', () => minimalOrderBody(refs, { transferNumbers: [{ names: { ru: 'Отдел' } }] }), 'transferNumbers.0.number'],
      ['a numeric transfer number', () => minimalOrderBody(refs, { transferNumbers: [{ number: 74951234500 }] }), 'transferNumbers.0.number'],
      [
        'transfer names in an unknown language',
        () => minimalOrderBody(refs, { transferNumbers: [{ number: '1', names: { de: 'Verkauf' } }] }),
        'transferNumbers.0.names.de',
      ],
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
      const res = await request(t.http)
        .post('/v2/order/create/')
        .set('X-Api-Key', t.apiKey)
        .set('Content-Type', 'application/json')
        .send('{"title": ')
        .expect(400);
      expect(res.body).toEqual({ success: false, message: 'Malformed JSON body', data: [] });
    });
  });
});
