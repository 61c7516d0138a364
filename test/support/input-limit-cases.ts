import { MAX_ARRAY_ITEMS, MAX_OBJECT_KEYS, MAX_VALUES } from '../../src/common/input-checks';
import { QUERY_PARAMETER_LIMIT } from '../../src/common/query';
import { leadBody, TestOrder } from '../factories/leads';
import { notificationBody } from '../factories/notifications';
import { minimalOrderBody, OrderRefs } from '../factories/orders';

/**
 * Requests at and past the input limits, shared by the functional checks (input-limits.e2e-spec.ts:
 * the answers, and that nothing is stored) and the CPU-time bounds of the same requests
 * (reliability/input-limits.rel-spec.ts). Bodies are built when sent, from the test's order and references.
 */
export interface LimitsContext {
  order: TestOrder;
  refs: OrderRefs;
}

export type Expected =
  /** 413 before any parsing, naming the route's limit. */
  | { status: 413; limit: string }
  /** 400 whose one error names the field. */
  | { status: 400; field: string; message: RegExp }
  /** 400, or 200 (a valid body). */
  | { status: 400 | 200 };

export interface LimitCase {
  label: string;
  method: 'GET' | 'POST';
  /** The path, with its query string for a GET. */
  path: string;
  body?: (c: LimitsContext) => unknown;
  expected: Expected;
}

export const KiB = 1024;

export const keys = (n: number, prefix = '') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i + 1}`, 'x']));
const unknownKeys = (n: number) => keys(n, 'k');
const v1Lead = ({ order }: LimitsContext, extra: object = {}) => ({
  lead_type: 'straight',
  client_phone: '+79161230000',
  order_id: order.id,
  order_code: order.code,
  ...extra,
});
const post = (path: string, label: string, body: (c: LimitsContext) => unknown, expected: Expected): LimitCase => ({
  label,
  method: 'POST',
  path,
  body,
  expected,
});

const RU_MONTHS = ['января', 'февраля', 'марта', 'апреля', 'мая', 'июня', 'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря'];
/** A year of distinct holidays written with Russian month names: the slowest layout to parse. */
export const RUSSIAN_HOLIDAYS = Array.from({ length: 366 }, (_, i) => `${(i % 28) + 1} ${RU_MONTHS[Math.floor(i / 28) % 12]} ${2027 + Math.floor(i / 336)} г.`);

const tooLarge = (path: string, limit: string, label: string, body: (c: LimitsContext) => unknown) => post(path, label, body, { status: 413, limit });

/** Bodies over the route's limit: 413 naming it, before any parsing. */
export const TOO_LARGE: LimitCase[] = [
  tooLarge('/v2/order/create/', '256 KiB', 'order with 35,000 holidays', ({ refs }) =>
    minimalOrderBody(refs, { callHolidayOverrides: Array(35_000).fill('31 декабря 2026 г.') }),
  ),
  tooLarge('/v2/order/create/', '256 KiB', 'order with 40,000 customValues', ({ refs }) => minimalOrderBody(refs, { customValues: keys(40_000) })),
  tooLarge('/v2/lead/create/', '256 KiB', 'lead with 40,000 customValues', ({ order }) => leadBody(order, { customValues: keys(40_000) })),
  tooLarge('/v2/lead/create/', '256 KiB', 'lead with 60,000 unknown keys', ({ order }) => ({ ...leadBody(order), ...keys(60_000, 'k') })),
  tooLarge('/v2/order/create/', '256 KiB', 'order with 120,000 agentUserIds', ({ refs }) =>
    minimalOrderBody(refs, { agentUserIds: Array.from({ length: 120_000 }, (_, i) => i + 1) }),
  ),
  tooLarge('/v1/notification/public/', '32 KiB', 'notification of 40 KiB', () => notificationBody({ text: 'x'.repeat(40 * KiB) })),
];

const refused = (path: string, label: string, body: (c: LimitsContext) => unknown, field: string, message: string | RegExp) =>
  post(path, label, body, { status: 400, field, message: typeof message === 'string' ? new RegExp(message) : message });
const tooManyKeys = `at most ${MAX_OBJECT_KEYS} keys`;
const tooManyItems = `at most ${MAX_ARRAY_ITEMS} items`;

/** Hostile shapes within the limit: 400 at the edge, before class-transformer. */
export const HOSTILE_SHAPES: LimitCase[] = [
  refused('/v2/lead/create/', 'lead create, 18,000 unknown keys', ({ order }) => ({ ...leadBody(order), ...unknownKeys(18_000) }), 'body', tooManyKeys),
  refused(
    '/v2/lead/create-async/',
    'lead create-async, 18,000 unknown keys',
    ({ order }) => ({ ...leadBody(order), ...unknownKeys(18_000) }),
    'body',
    tooManyKeys,
  ),
  refused('/v1/lead/create/', 'v1 lead create, 18,000 unknown keys', (c) => v1Lead(c, unknownKeys(18_000)), 'body', tooManyKeys),
  refused('/v1/notification/public/', 'notification, 2,000 unknown keys', () => ({ ...notificationBody(), ...unknownKeys(2_000) }), 'body', tooManyKeys),
  refused('/v2/lead/create/', 'lead, 20,000 customValues', ({ order }) => leadBody(order, { customValues: keys(20_000) }), 'customValues', tooManyKeys),
  refused('/v2/order/create/', 'order, 20,000 customValues', ({ refs }) => minimalOrderBody(refs, { customValues: keys(20_000) }), 'customValues', tooManyKeys),
  refused(
    '/v2/order/create/',
    'order, 5,000 holidays',
    ({ refs }) => minimalOrderBody(refs, { callHolidayOverrides: Array(5_000).fill('31 декабря 2026 г.') }),
    'callHolidayOverrides',
    tooManyItems,
  ),
  refused(
    '/v2/order/create/',
    'order, 10,000 transferNumbers',
    ({ refs }) => minimalOrderBody(refs, { transferNumbers: Array.from({ length: 10_000 }, (_, i) => ({ number: String(i) })) }),
    'transferNumbers',
    tooManyItems,
  ),
  refused(
    '/v2/order/create/',
    'order, 30,000 agentUserIds',
    ({ refs }) => minimalOrderBody(refs, { agentUserIds: Array.from({ length: 30_000 }, (_, i) => i + 1) }),
    'agentUserIds',
    tooManyItems,
  ),
  refused(
    '/v2/lead/create/',
    'lead, 20 x 1,000 values in an unknown field',
    ({ order }) => leadBody(order, { junk: Array.from({ length: 20 }, () => Array(1000).fill(0)) }),
    'body',
    `at most ${MAX_VALUES} values`,
  ),
];

/** Per-field caps: 400 naming the field and the cap. */
export const FIELD_CAPS: LimitCase[] = [
  refused(
    '/v2/order/create/',
    'order, 1,000 holidays',
    ({ refs }) => minimalOrderBody(refs, { callHolidayOverrides: Array(1000).fill('31 декабря 2026 г.') }),
    'callHolidayOverrides',
    /at most 366 dates/,
  ),
  refused(
    '/v2/order/create/',
    'order, a 41-character holiday',
    ({ refs }) => minimalOrderBody(refs, { callHolidayOverrides: ['31.12.2026', '31.12.2026'.padEnd(41, ' ')] }),
    'callHolidayOverrides',
    /item 1 must be at most 40 characters/,
  ),
  refused(
    '/v2/order/create/',
    'order, 1,000 transferNumbers',
    ({ refs }) => minimalOrderBody(refs, { transferNumbers: Array.from({ length: 1000 }, (_, i) => ({ number: String(i) })) }),
    'transferNumbers',
    /no more than 50/,
  ),
  refused(
    '/v2/order/create/',
    'order, 201 customValues',
    ({ refs }) => minimalOrderBody(refs, { customValues: keys(201) }),
    'customValues',
    /at most 200 values/,
  ),
  refused('/v2/lead/create/', 'lead, 201 customValues', ({ order }) => leadBody(order, { customValues: keys(201) }), 'customValues', /at most 200 values/),
  refused(
    '/v2/lead/create/',
    'lead, ip with a 100-letter zone id',
    ({ order }) => leadBody(order, { ip: `fe80::1%${'a'.repeat(100)}` }),
    'ip',
    /64 characters/,
  ),
  refused(
    '/v2/lead/create-async/',
    'lead create-async, ip with a 100-letter zone id',
    ({ order }) => leadBody(order, { ip: `fe80::1%${'a'.repeat(100)}` }),
    'ip',
    /64 characters/,
  ),
];

/** The largest valid bodies, and a large one refused by what it names. */
export const LONGEST_COMMENT = post(
  '/v2/lead/create/',
  'lead with the longest sourceComment',
  ({ order }) => leadBody(order, { sourceComment: 'ж'.repeat(65_535) }),
  { status: 200 },
);
export const HOLIDAY_YEAR = post(
  '/v2/order/create/',
  'order with 366 distinct Russian holidays',
  ({ refs }) => minimalOrderBody(refs, { callHolidayOverrides: RUSSIAN_HOLIDAYS }),
  { status: 200 },
);
export const UNKNOWN_AGENTS = post(
  '/v2/order/create/',
  'order with 1,000 unknown agentUserIds',
  ({ refs }) => minimalOrderBody(refs, { agentUserIds: Array.from({ length: 1000 }, (_, i) => 2_000_000 + i) }),
  { status: 400 },
);

export const leadIdsQuery = (n: number) => Array.from({ length: n }, (_, i) => `leadIds[]=${i + 1}`).join('&');
/** More query parameters than the limit: refused, not cut. */
export const TOO_MANY_PARAMETERS: LimitCase = {
  label: '250 leadIds[] then limit=3',
  method: 'GET',
  path: `/v2/call/?${leadIdsQuery(250)}&limit=3`,
  expected: { status: 400, field: 'query', message: new RegExp(`at most ${QUERY_PARAMETER_LIMIT} parameters`) },
};
