import request from 'supertest';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Contract audit: every endpoint of API.md, on the demo dataset, answers with exactly the fields
 * API.md lists (plus the extensions the README documents) and each field has exactly the JSON type
 * API.md's tables give. `expectShape` names the offending field on failure.
 */

// ---------------------------------------------------------------------------------------------
// A small shape checker: a spec maps each field to a type expression or a validator.
// Type expressions: 'int', 'float', 'string', 'bool', 'null', 'iso', 'sqldt', 'shortdt', 'date',
// 'hhmm', 'object', 'array', 'int[]', 'string[]', 'empty[]', alternatives joined by '|'.
// ---------------------------------------------------------------------------------------------

type Check = (value: unknown, path: string) => string[];
type Spec = Record<string, string | Check>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const SQL_DT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const SHORT_DT = /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/;
const DDMMYYYY = /^\d{2}\.\d{2}\.\d{4}$/;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const ATOMS: Record<string, (v: unknown) => boolean> = {
  int: (v) => typeof v === 'number' && Number.isInteger(v),
  float: (v) => typeof v === 'number' && Number.isFinite(v),
  string: (v) => typeof v === 'string',
  '""': (v) => v === '',
  bool: (v) => typeof v === 'boolean',
  null: (v) => v === null,
  iso: (v) => typeof v === 'string' && ISO.test(v) && !Number.isNaN(Date.parse(v)),
  sqldt: (v) => typeof v === 'string' && SQL_DT.test(v),
  shortdt: (v) => typeof v === 'string' && SHORT_DT.test(v),
  date: (v) => typeof v === 'string' && DDMMYYYY.test(v),
  hhmm: (v) => typeof v === 'string' && HHMM.test(v),
  object: isPlainObject,
  array: Array.isArray,
  'empty[]': (v) => Array.isArray(v) && v.length === 0,
  'int[]': (v) => Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isInteger(x)),
  'string[]': (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
  'date[]': (v) => Array.isArray(v) && v.every((x) => typeof x === 'string' && DDMMYYYY.test(x)),
};

const describeValue = (v: unknown) => (v === undefined ? 'undefined' : JSON.stringify(v)?.slice(0, 80));

function typeCheck(expr: string): Check {
  const alternatives = expr.split('|');
  for (const a of alternatives) if (!ATOMS[a]) throw new Error(`unknown type ${a}`);
  return (v, path) => (alternatives.some((a) => ATOMS[a](v)) ? [] : [`${path}: expected ${expr}, got ${describeValue(v)}`]);
}

/** One of the listed values (API.md enumerations). */
const oneOf =
  (...values: unknown[]): Check =>
  (v, path) =>
    values.includes(v) ? [] : [`${path}: expected one of ${JSON.stringify(values)}, got ${describeValue(v)}`];

/** A nested object with its own exact spec. */
const shape =
  (spec: Spec): Check =>
  (v, path) =>
    shapeErrors(v, spec, path);

/** An array whose every item passes `item`. */
const arrayOf =
  (item: Check | string, opts: { length?: number } = {}): Check =>
  (v, path) => {
    if (!Array.isArray(v)) return [`${path}: expected array, got ${describeValue(v)}`];
    const errors: string[] = [];
    if (opts.length !== undefined && v.length !== opts.length) errors.push(`${path}: expected ${opts.length} items, got ${v.length}`);
    const check = typeof item === 'string' ? typeCheck(item) : item;
    v.forEach((x, i) => errors.push(...check(x, `${path}[${i}]`)));
    return errors;
  };

/** Both checks must pass. */
const all =
  (...checks: (Check | string)[]): Check =>
  (v, path) =>
    checks.flatMap((c) => (typeof c === 'string' ? typeCheck(c) : c)(v, path));

/** Either check passes. */
const either =
  (...checks: (Check | string)[]): Check =>
  (v, path) => {
    const results = checks.map((c) => (typeof c === 'string' ? typeCheck(c) : c)(v, path));
    return results.some((r) => r.length === 0) ? [] : results.flat();
  };

function shapeErrors(obj: unknown, spec: Spec, path: string, optional: string[] = []): string[] {
  if (!isPlainObject(obj)) return [`${path}: expected object, got ${describeValue(obj)}`];
  const errors: string[] = [];
  for (const key of Object.keys(spec)) {
    if (!(key in obj)) {
      if (!optional.includes(key)) errors.push(`${path}.${key}: missing`);
      continue;
    }
    const c = spec[key];
    errors.push(...(typeof c === 'string' ? typeCheck(c) : c)(obj[key], `${path}.${key}`));
  }
  for (const key of Object.keys(obj)) if (!(key in spec)) errors.push(`${path}.${key}: unexpected field`);
  return errors;
}

/** Fails with every offending field named. */
function expectShape(obj: unknown, spec: Spec, path = 'data', optional: string[] = []) {
  expect(shapeErrors(obj, spec, path, optional)).toEqual([]);
}

function expectEach(items: unknown[], spec: Spec, path: string) {
  expect(items.flatMap((item, i) => shapeErrors(item, spec, `${path}[${i}]`))).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// The resources of API.md.
// ---------------------------------------------------------------------------------------------

const SUCCESS_ENVELOPE: Spec = { success: oneOf(true), message: oneOf(''), data: (v, p) => (v === undefined ? [`${p}: missing`] : []) };
const LIST_WRAPPER: Spec = { list: 'array', next: 'int', total: 'int' };
const ID_ONLY: Spec = { id: 'int' };

const callScheduleDay = either('empty[]', arrayOf('hhmm', { length: 2 }));

const transferNumber = shape({
  number: (v, p) => (typeof v === 'string' && v.length > 0 && !/\s/.test(v) ? [] : [`${p}: expected a number without spaces, got ${describeValue(v)}`]),
  // names: [] when none, else a map of language code to name.
  names: either('empty[]', (v, p) =>
    isPlainObject(v) && Object.keys(v).length > 0 && Object.values(v).every((x) => typeof x === 'string') ? [] : [`${p}: expected a non-empty map of strings, got ${describeValue(v)}`],
  ),
});

const nonEmptyMap: Check = (v, p) => (isPlainObject(v) && Object.keys(v).length > 0 ? [] : [`${p}: expected a non-empty map, got ${describeValue(v)}`]);
const customValueKeys: Check = (v, p) =>
  isPlainObject(v) ? Object.keys(v).filter((k) => !/^[1-9]\d*$/.test(k)).map((k) => `${p}: key ${k} is not a custom field id`) : [];

function orderSpec(form: 'detail' | 'list'): Spec {
  return {
    id: 'int',
    code: all('string', (v, p) => (/^[a-z0-9_-]+$/.test(v as string) ? [] : [`${p}: bad code ${describeValue(v)}`])),
    serviceTitle: 'string',
    title: 'string',
    callSchedule: arrayOf(callScheduleDay, { length: 7 }),
    callHolidayOverrides: 'date[]',
    autoDialingEnabled: 'bool',
    predictiveModeEnabled: 'bool',
    aiDefaultLanguage: oneOf('ru', 'gb', null),
    amdDetectionEnabled: 'bool',
    callRecordRule: oneOf('client_is_connected', 'agent_is_connected'),
    sipEndpointUsageScheme: oneOf('random_default', 'random_without_repetition', 'even_loaded', 'even_loaded_daily'),
    agentUserIds: 'int[]',
    agentGroupIds: 'int[]',
    showLeadContactsToAgent: 'bool',
    callAttemptGroupId: 'int',
    qualifiedLeadsPerDayLimit: 'int|null',
    // API.md: int; README documents `null` until a scenario is set.
    callScenarioId: 'int',
    leadTransformEnabled: 'bool',
    status: oneOf('success', 'secondary', 'info'),
    speechRecognitionEnabled: 'bool',
    ignoreLeadTimezone: 'bool',
    sipEndpointIds: all('int[]', (v, p) => ((v as unknown[]).length > 0 ? [] : [`${p}: empty`])),
    // Detail: always a map; list: a map, or [] when there are none.
    customValues: form === 'detail' ? all('object', customValueKeys) : either('empty[]', all(nonEmptyMap, customValueKeys)),
    agentLeadCreationIsAllowed: 'bool',
    agentLeadEditMode: oneOf('during-call', 'always', 'never'),
    autoProcessCall: 'bool',
    transferNumbers: arrayOf(transferNumber),
    // Extension documented in the README.
    defaultUtcOffset: 'int',
    // Extension (issue 14): IANA zone or null.
    defaultTimeZone: 'string|null',
    createdAt: 'iso',
    updatedAt: 'iso',
  };
}

const LEAD_SOURCES = ['organic', 'non-organic', 'search-a.ads', 'social-a.ads', 'social-b.ads', 'video-a.ads', 'search-b.direct', 'social-c.ads', 'messenger-a.ads'];

function leadV2Spec(form: 'detail' | 'list'): Spec {
  return {
    id: 'int',
    name: 'string',
    phone: all('string', (v, p) => (/^\+[1-9]\d{6,14}$/.test(v as string) ? [] : [`${p}: not E.164 with +: ${describeValue(v)}`])),
    sourceComment: 'string',
    ip: 'string',
    externalIdCrmA: 'string',
    externalIdCrmB: 'string',
    externalIdCrmC: 'string',
    externalIdCrmD: 'string',
    statusId: 'int',
    leadType: oneOf('straight', 'selection'),
    createMethod: 'string',
    source: oneOf(...LEAD_SOURCES),
    isSecondary: 'bool|null',
    ...(form === 'list' ? { previousLeadId: 'int|null', nextLeadId: 'int|null' } : {}),
    // A string (ISO 8601 per PRODUCT.md); "" when no call is planned, like every string field the lead lacks.
    planningCallDateTime: 'iso|""',
    priority: 'int',
    utcOffset: 'int',
    // Extension (issue 14): IANA zone or null.
    timeZone: 'string|null',
    createdAt: 'iso',
    updatedAt: 'iso',
    orderId: 'int',
    orderCode: 'string',
    socialAId: 'string',
    socialBLogin: 'string',
    messengerUserName: 'string',
    messengerPhone: 'string',
    adCampaignId: 'string|null',
    customValues: all('object', customValueKeys),
  };
}

const LEAD_V1: Spec = {
  ID: 'int',
  UF_NAME: 'string',
  UF_PHONE: 'string',
  UF_QUIZ_LOG: 'string',
  UF_USER_IP: 'string',
  UF_CAMPAIGN_ID: 'string',
  UF_ADDITIONAL_PARAMS: 'object|string',
  UF_EXTERNAL_ID: 'string',
  UF_STATUS: 'string',
  UF_LEAD_TYPE: oneOf('straight', 'selection'),
  UF_CREATE_METHOD: 'string',
  UF_CITY: 'string|null',
  UF_FAIL_ORDERS: 'array|null',
  UF_OBJECTS: 'string|null',
  UF_IS_SECONDARY: 'bool|null',
  UF_PREVIOUS_LEAD: 'int|null',
  UF_NEXT_LEAD: 'int|null',
  UF_CALL_DATE_TIME: 'int',
  UF_CALL_PRIORITY: 'int',
  UF_CLIENT_UTC_OFFSET: 'int',
  UF_PREPARE_IS_FINISHED: 'int',
  // API.md: string; the README documents ISO 8601 like v2.
  UF_DATE_CREATE: 'iso',
  UF_DATE_UPDATE: 'iso',
  UF_ORDER: 'int',
  UF_SELECTION_TYPE: 'string',
  socialAId: 'string',
  socialBLogin: 'string',
  messengerUserName: 'string',
  messengerPhone: 'string',
};

const CALL: Spec = {
  id: 'int',
  sipEndpointId: 'int',
  finishInitiator: oneOf('agent', 'client', 'system', null),
  direction: oneOf('incoming', 'outgoing'),
  leadId: 'int',
  userId: 'int',
  orderId: 'int',
  statusId: 'int',
  totalDurationSeconds: 'int',
  waitTimeDurationSeconds: 'int',
  talkTimeDurationSeconds: 'int',
  isPredictive: 'bool',
  clientPhone: all('string', (v, p) => (/^[1-9]\d{6,14}$/.test(v as string) ? [] : [`${p}: expected digits without +, got ${describeValue(v)}`])),
  hasRecords: 'bool',
  createdAt: 'iso',
};

const ACCESS_GROUPS = ['client', 'call-center', 'call-center-senior', 'arbitration', 'moderator', 'admin'];

const USER: Spec = {
  id: 'int',
  name: 'string|null',
  lastName: 'string|null',
  email: 'string',
  isActive: 'bool',
  accessGroup: oneOf(...ACCESS_GROUPS, ''),
  webRtcIsEnabled: 'bool',
  interfaceLanguageCode: oneOf('ru', 'gb'),
  languageSkillsCode: arrayOf(oneOf('ru', 'gb')),
  autoAnswer: oneOf(-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
  phoneMode: oneOf('default', 'outgoing-only', 'incoming-only', 'predictive'),
  avatar: all('string', (v, p) => (/^https?:\/\//.test(v as string) ? [] : [`${p}: not a URL: ${describeValue(v)}`])),
  telegramNotificationsEnabled: 'bool',
  telegramChatId: 'string|null',
  telegramNotificationsPriority: oneOf(null, 'urgent'),
  emailNotificationsEnabled: 'bool',
  emailNotificationsPriority: oneOf(null, 'urgent'),
  lastLoginAt: 'sqldt|null',
  lastActivityAt: 'sqldt|null',
  createdAt: 'iso',
};

const AGENT_GROUP_NAMES = shape({ ru: 'string', gb: 'string' });

const AGENT_GROUP_DETAIL: Spec = {
  id: 'int',
  names: AGENT_GROUP_NAMES,
  agentIds: 'int[]',
  createdBy: 'int',
  updatedBy: 'int',
  createdAt: 'shortdt',
  updatedAt: 'shortdt',
};

const AGENT_GROUP_LIST_ITEM: Spec = {
  id: 'int',
  names: AGENT_GROUP_NAMES,
  agentIds: 'int[]',
  createdAt: 'iso',
  updatedAt: 'iso',
};

const CUSTOM_FIELD_TYPES = ['string', 'int', 'float', 'date', 'datetime', 'bool', 'select', 'multiselect'];
const CUSTOM_FIELD: Spec = {
  id: 'int',
  title: 'string',
  type: oneOf(...CUSTOM_FIELD_TYPES),
  essence: oneOf('leads', 'orders'),
  params: arrayOf(shape({ code: 'string', sort: 'int', title: 'string' })),
  sort: 'int',
};

const HEALTH_DATA: Spec = { executionTime: 'float', reasonPhrase: 'string' };
const MQ_CONSUMER = shape({
  queue_name: 'string',
  success: 'bool',
  // backlog: extension documented in the README.
  data: shape({ current_consumers_count: 'int', needle_consumers_count: 'int', backlog: 'int' }),
});

function healthComponentErrors(key: string, c: unknown): string[] {
  const path = `data.${key}`;
  const errors = shapeErrors(c, { success: 'bool', message: 'string', data: 'object' }, path);
  if (errors.length) return errors;
  const data = (c as { data: unknown }).data;
  const spec: Spec = key === 'serviceMqHub' ? { ...HEALTH_DATA, consumers: arrayOf(MQ_CONSUMER) } : HEALTH_DATA;
  return shapeErrors(data, spec, `${path}.data`, ['reasonPhrase']);
}

// ---------------------------------------------------------------------------------------------

describe('API.md contract on the demo dataset', () => {
  let t: TestApp;
  const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey);
  const post = (path: string, body: object) => request(t.http).post(path).set('X-Api-Key', t.apiKey).send(body);

  /** GET answering 200 with a success envelope, both with and without the trailing slash. */
  async function read(path: string, sameBothWays = true): Promise<any> {
    const [base, query] = path.split('?');
    const q = query ? `?${query}` : '';
    const slashed = await get(`${base.replace(/\/$/, '')}/${q}`);
    const bare = await get(`${base.replace(/\/$/, '')}${q}`);
    expect({ path, status: slashed.status }).toEqual({ path, status: 200 });
    expect({ path: `${path} (no trailing slash)`, status: bare.status }).toEqual({ path: `${path} (no trailing slash)`, status: 200 });
    expectShape(slashed.body, SUCCESS_ENVELOPE, 'body');
    expectShape(bare.body, SUCCESS_ENVELOPE, 'body');
    if (sameBothWays) expect(bare.body.data).toEqual(slashed.body.data);
    return slashed.body.data;
  }

  /** POST answering 200 with a success envelope. */
  async function write(path: string, body: object): Promise<any> {
    const res = await post(path, body);
    expect({ path, status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ path, status: 200, body: undefined });
    expectShape(res.body, SUCCESS_ENVELOPE, 'body');
    return res.body.data;
  }

  /** Every page of a list endpoint, checking the wrapper on each. */
  async function walk(path: string, limit = 100): Promise<any[]> {
    const items: any[] = [];
    const sep = path.includes('?') ? '&' : '?';
    for (let offset = 0; ; ) {
      const page = await read(`${path}${sep}offset=${offset}&limit=${limit}`);
      expectShape(page, LIST_WRAPPER);
      items.push(...page.list);
      expect(page.next).toBe(offset + page.list.length);
      if (page.list.length < limit || page.next >= page.total) {
        expect(items.length).toBe(page.total);
        return items;
      }
      offset = page.next;
    }
  }

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.get(DemoSeeder).run();
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  describe('orders', () => {
    let sipIds: number[];
    beforeAll(async () => {
      sipIds = (await read('/v2/sip-endpoint/')).list.map((s: { id: number }) => s.id);
    });

    it('GET /v2/order/ and /v2/order/detail/{id}/ on every demo order', async () => {
      const orders = await walk('/v2/order/');
      expect(orders.length).toBeGreaterThanOrEqual(5);
      expectEach(orders, orderSpec('list'), 'list');
      for (const o of orders) {
        const detail = await read(`/v2/order/detail/${o.id}/`);
        expectShape(detail, orderSpec('detail'), `detail(${o.id})`);
        // Same object apart from the customValues [] / {} rule.
        expect({ ...detail, customValues: null }).toEqual({ ...o, customValues: null });
      }
      // The demo has orders with transfer numbers with and without names, and with custom values.
      const transfers = orders.flatMap((o) => o.transferNumbers);
      expect(transfers.some((tn) => Array.isArray(tn.names))).toBe(true);
      expect(transfers.some((tn) => !Array.isArray(tn.names))).toBe(true);
      expect(orders.some((o) => !Array.isArray(o.customValues))).toBe(true);
    });

    it('POST /v2/order/create/ answers {id}; an order without custom values is {} in detail and [] in the list', async () => {
      const created = await write('/v2/order/create/', {
        serviceTitle: 'Contract check',
        title: 'Contract check',
        status: 'info',
        sipEndpointIds: [sipIds[0]],
        callSchedule: [['09:00', '18:00']],
        callHolidayOverrides: ['2027-03-08'],
        transferNumbers: [{ number: '+74951112233' }, { number: '+74951112234', names: { ru: 'Бухгалтерия', gb: 'Accounting' } }],
        createdAt: '2001-01-01T00:00:00Z',
        unknownField: 1,
      });
      expectShape(created, ID_ONLY);
      const detail = await read(`/v2/order/detail/${created.id}/`);
      expectShape(detail, orderSpec('detail'));
      expect(detail.customValues).toEqual({});
      expect(Array.isArray(detail.customValues)).toBe(false);
      expect(detail.callSchedule).toEqual([['09:00', '18:00'], [], [], [], [], [], []]);
      expect(detail.callHolidayOverrides).toEqual(['08.03.2027']);
      expect(detail.transferNumbers).toEqual([
        { number: '+74951112233', names: [] },
        { number: '+74951112234', names: { ru: 'Бухгалтерия', gb: 'Accounting' } },
      ]);
      const listed = (await walk('/v2/order/')).find((o) => o.id === created.id);
      expect(listed.customValues).toEqual([]);
      expect(Array.isArray(listed.customValues)).toBe(true);
    });

    it('POST /v2/order/update/{id}/ answers data []', async () => {
      const data = await write('/v2/order/update/1/', { status: 'secondary' });
      expect(data).toEqual([]);
      expect(await write('/v2/order/update/1', { status: 'success' })).toEqual([]);
    });
  });

  describe('leads', () => {
    let order: { id: number; code: string };
    beforeAll(async () => {
      const o = await read('/v2/order/detail/1/');
      order = { id: o.id, code: o.code };
    });

    it('GET /v2/lead/ items carry previousLeadId/nextLeadId; detail does not', async () => {
      const leads = await walk('/v2/lead/');
      expect(leads.length).toBeGreaterThanOrEqual(200);
      expectEach(leads, leadV2Spec('list'), 'list');
      expect(leads.some((l) => l.previousLeadId !== null)).toBe(true);
      expect(leads.some((l) => l.nextLeadId !== null)).toBe(true);
      for (const l of leads) {
        const detail = await read(`/v2/lead/detail/${l.id}/`);
        expectShape(detail, leadV2Spec('detail'), `detail(${l.id})`);
        const { previousLeadId: _p, nextLeadId: _n, ...rest } = l;
        expect(detail).toEqual(rest);
      }
    });

    it('GET /v2/lead/ with the documented filters keeps the wrapper', async () => {
      const page = await read(`/v2/lead/?createdAt[0]=2000-01-01T00:00:00Z&createdAt[1]=2100-01-01T00:00:00Z&orderIds[]=${order.id}&statusIds[]=1&statusIds[]=2&limit=5`);
      expectShape(page, LIST_WRAPPER);
      expectEach(page.list, leadV2Spec('list'), 'list');
    });

    it('GET /v1/lead/detail/{id}/ on every demo lead: the UF_ shape', async () => {
      const leads = await walk('/v2/lead/');
      for (const l of leads) {
        const v1 = await read(`/v1/lead/detail/${l.id}/`);
        expectShape(v1, LEAD_V1, `v1(${l.id})`);
        expect(v1.ID).toBe(l.id);
        expect(v1.UF_ORDER).toBe(l.orderId);
        expect(v1.UF_PREVIOUS_LEAD).toBe(l.previousLeadId);
        expect(v1.UF_NEXT_LEAD).toBe(l.nextLeadId);
        expect(v1.UF_STATUS).toBe(String(l.statusId));
        expect(v1.UF_CALL_DATE_TIME).toBe(l.planningCallDateTime === '' ? 0 : Math.floor(Date.parse(l.planningCallDateTime) / 1000));
      }
    });

    it('POST /v2/lead/create/ answers {id}, create-async [], update []', async () => {
      const created = await write('/v2/lead/create/', { leadType: 'straight', phone: '+4915112345678', orderId: order.id, orderCode: order.code, name: 'Lena' });
      expectShape(created, ID_ONLY);
      const detail = await read(`/v2/lead/detail/${created.id}`);
      expectShape(detail, leadV2Spec('detail'));
      expect(detail.customValues).toEqual({});

      const accepted = await post('/v2/lead/create-async/', { leadType: 'selection', phone: '375291234567', orderId: order.id, orderCode: order.code }).expect(200);
      expectShape(accepted.body, SUCCESS_ENVELOPE, 'body');
      expect(accepted.body.data).toEqual([]);
      // Extension (PRODUCT.md): the job id travels in a header, never in the body.
      expect(accepted.headers['x-job-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(await write('/v2/lead/create-async', { leadType: 'selection', phone: '375291234568', orderId: order.id, orderCode: order.code })).toEqual([]);

      expect(await write(`/v2/lead/update/${created.id}/`, { priority: 5, adCampaignId: 'cmp-1' })).toEqual([]);
      expect(await write(`/v2/lead/update/${created.id}`, { utcOffset: 1 })).toEqual([]);
    });

    it('POST /v1/lead/create/ answers {id}, update []', async () => {
      const created = await write('/v1/lead/create/', {
        lead_type: 'straight',
        client_phone: '+447911123456',
        order_id: order.id,
        order_code: order.code,
        messengerId: 77,
        socialAId: 12345,
        socialBLogin: 'john',
        client_name: 'John',
      });
      expectShape(created, ID_ONLY);
      expect(await write(`/v1/lead/update/${created.id}/`, { status: 2, call_timestamp: 1893456000 })).toEqual([]);
      expect(await write(`/v1/lead/update/${created.id}`, { priority: 3 })).toEqual([]);
      const v1 = await read(`/v1/lead/detail/${created.id}/`);
      expectShape(v1, LEAD_V1);
      expect(v1.UF_CALL_DATE_TIME).toBe(1893456000);
      expect(v1.socialAId).toBe('12345');
    });
  });

  describe('calls', () => {
    it('GET /v2/call/ and /v2/call/detail/{id}/ on every demo call', async () => {
      const orderIds = (await walk('/v2/order/')).map((o) => o.id).join(',');
      const calls = await walk(`/v2/call/?orderIds=${orderIds}`);
      expect(calls.length).toBeGreaterThan(100);
      expectEach(calls, CALL, 'list');
      for (const c of calls) {
        const detail = await read(`/v2/call/detail/${c.id}/`);
        expectShape(detail, CALL, `detail(${c.id})`);
        expect(detail).toEqual(c);
      }
      const byLead = await read(`/v2/call/?leadIds[]=${calls[0].leadId}&createdAt[0]=2000-01-01T00:00:00Z&createdAt[1]=2100-01-01T00:00:00Z`);
      expectShape(byLead, LIST_WRAPPER);
      expectEach(byLead.list, CALL, 'list');
    });
  });

  describe('users', () => {
    it('GET /v2/user/list/ and /v2/user/detail/{id}/ on every demo user', async () => {
      const users = await walk('/v2/user/list/');
      expect(users.length).toBeGreaterThanOrEqual(15);
      expectEach(users, USER, 'list');
      for (const u of users) {
        const detail = await read(`/v2/user/detail/${u.id}/`);
        expectShape(detail, USER, `detail(${u.id})`);
        expect(detail).toEqual(u);
      }
      expect(users.some((u) => u.lastLoginAt === null)).toBe(true);
      expect(users.some((u) => u.lastLoginAt !== null)).toBe(true);
      const filtered = await read('/v2/user/list/?accessGroup=call-center&isActive=true');
      expectShape(filtered, LIST_WRAPPER);
      expectEach(filtered.list, USER, 'list');
    });
  });

  describe('agent groups', () => {
    it('GET /v2/agent-group/ (list form) and /v2/agent-group/{id}/ (detail form)', async () => {
      const groups = await walk('/v2/agent-group/');
      expect(groups.length).toBeGreaterThanOrEqual(3);
      expectEach(groups, AGENT_GROUP_LIST_ITEM, 'list');
      for (const g of groups) {
        const detail = await read(`/v2/agent-group/${g.id}/`);
        expectShape(detail, AGENT_GROUP_DETAIL, `detail(${g.id})`);
        expect({ id: detail.id, names: detail.names, agentIds: detail.agentIds }).toEqual({ id: g.id, names: g.names, agentIds: g.agentIds });
      }
      const agentId = groups.find((g) => g.agentIds.length > 0).agentIds[0];
      const filtered = await read(`/v2/agent-group/?agentId=${agentId}`);
      expectShape(filtered, LIST_WRAPPER);
      expectEach(filtered.list, AGENT_GROUP_LIST_ITEM, 'list');
    });
  });

  describe('custom fields', () => {
    it('GET /v2/custom-field/ and /v2/custom-fields/: a bare array, params [] for non-option types', async () => {
      for (const path of ['/v2/custom-field/', '/v2/custom-fields/', '/v2/custom-field/?essence=orders', '/v2/custom-fields/?essence=leads']) {
        const fields = await read(path);
        expect(Array.isArray(fields)).toBe(true);
        expect(fields.length).toBeGreaterThan(0);
        expectEach(fields, CUSTOM_FIELD, path);
        for (const f of fields) {
          if (f.type === 'select' || f.type === 'multiselect') expect({ id: f.id, options: f.params.length > 0 }).toEqual({ id: f.id, options: true });
          else expect({ id: f.id, params: f.params }).toEqual({ id: f.id, params: [] });
        }
      }
      expect(await read('/v2/custom-fields/')).toEqual(await read('/v2/custom-field/'));
      const types = new Set((await read('/v2/custom-field/')).map((f: { type: string }) => f.type));
      expect([...types].sort()).toEqual([...CUSTOM_FIELD_TYPES].sort());
    });
  });

  describe('call attempt groups', () => {
    it('POST /v2/call-attempt/update/{id}/ answers data []', async () => {
      expect(await write('/v2/call-attempt/update/1/', { title: 'Стандартный дозвон', intervals: [5, 30, 120] })).toEqual([]);
      expect(await write('/v2/call-attempt/update/1', { resetAttemptsEnabled: true, isDefault: true })).toEqual([]);
    });
  });

  describe('notifications', () => {
    it('POST /v1/notification/group|private|public/ answer data []', async () => {
      const common = { type: 'default', level: 'success', title: 'Contract', text: 'Check' };
      expect(await write('/v1/notification/group/', { ...common, group: 'call-center' })).toEqual([]);
      expect(await write('/v1/notification/group', { ...common, group: 'admin' })).toEqual([]);
      expect(await write('/v1/notification/private/', { ...common, type: 'urgent', user_id: 1 })).toEqual([]);
      expect(await write('/v1/notification/private', { ...common, user_id: 2 })).toEqual([]);
      expect(await write('/v1/notification/public/', { ...common, level: 'warning' })).toEqual([]);
      expect(await write('/v1/notification/public', { ...common, level: 'danger' })).toEqual([]);
    });
  });

  describe('failures', () => {
    const FAILURE: Spec = { success: oneOf(false), message: (v, p) => (typeof v === 'string' && v.length > 0 ? [] : [`${p}: expected a non-empty string`]), data: 'empty[]|object' };

    it('unknown ids and bad input answer the failure envelope {success: false, message, data}', async () => {
      for (const path of ['/v2/order/detail/999999/', '/v2/lead/detail/999999/', '/v1/lead/detail/999999/', '/v2/call/detail/999999/', '/v2/user/detail/999999/', '/v2/agent-group/999999/']) {
        const res = await get(path);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expectShape(res.body, FAILURE, `body(${path})`);
        expect(res.body.data).toEqual([]);
      }
      const bad = await post('/v2/order/create/', { title: 'No sip endpoints', serviceTitle: 'x', status: 'info', sipEndpointIds: [] });
      expect(bad.status).toBe(400);
      expectShape(bad.body, FAILURE, 'body');
      expectShape(bad.body.data, { errors: arrayOf(shape({ field: 'string', message: 'string' })) });
      const zero = await get('/v2/order/detail/0/');
      expect(zero.status).toBe(400);
      expectShape(zero.body, FAILURE, 'body');
    });
  });

  describe('health', () => {
    it('GET /v1/health/check/: a map of components {success, message, data:{executionTime, reasonPhrase?}}', async () => {
      const data = await read('/v1/health/check/', false);
      expect(isPlainObject(data)).toBe(true);
      expect(Object.keys(data)).toEqual(expect.arrayContaining(['serviceMqHub']));
      expect(Object.entries(data).flatMap(([key, c]) => healthComponentErrors(key, c))).toEqual([]);
      for (const c of Object.values<any>(data)) expect(c.message).toBe(c.success ? '' : expect.any(String));
      expect(data.serviceMqHub.data.consumers.length).toBeGreaterThan(0);
    });
  });
});
