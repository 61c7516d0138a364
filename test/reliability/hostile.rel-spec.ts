import { demoSipEndpointId, leadBody } from './support/fixtures';
import { ConnectionError, HttpResult } from './support/http';
import { LivenessProbe, StallMeasurement } from './support/probe';
import { writeFigures } from './support/run-dir';
import { Scenario, startScenario } from './support/scenario';

/**
 * Each hostile body class, sent to the real service: a 4xx, no event-loop stall over 50 ms (a concurrent /health/live
 * probe measures it), nothing stored (row counts). Scalable classes go at their nominal size (a route's body limit may
 * refuse it with 413 unread) and again just under the route's limit, so the caps on keys and items are exercised too.
 */

const STALL_LIMIT_MS = 50;
/** A stall this short may be the shared machine's noise: measured again (at most 3 times), the least kept. */
const REMEASURE_BELOW_MS = 1000;

interface HostileCase {
  /** The body class; `%n` stands for the number of items. */
  id: string;
  method: 'GET' | 'POST';
  path: () => string;
  /** A body with `n` hostile items; `items` is the case's nominal size. */
  body?: (n: number) => Record<string, unknown>;
  items?: number;
  /** Extra evidence that nothing changed (e.g. the updated lead's row). */
  fingerprint?: () => Promise<string>;
}

interface CaseResult {
  id: string;
  status: number;
  bodyBytes: number;
  storedDelta: Record<string, number>;
  stall: StallMeasurement;
  attempts: number[];
  responseMs: number;
}

let s: Scenario;
let probe: LivenessProbe;
let sipEndpointId: number;
let existingLeadId: number;
const results: CaseResult[] = [];

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const manyKeys = (n: number, value: unknown = 0) => Object.fromEntries(range(n).map((i) => [`k${i}`, value]));

const validOrder = () => ({
  serviceTitle: 'Reliability hostile order',
  title: 'Reliability hostile order',
  status: 'success',
  sipEndpointIds: [sipEndpointId],
});
const validLead = () => leadBody(s.order, s.people);
const validLeadV1 = () => ({
  lead_type: 'straight',
  client_phone: s.people.phone(),
  order_id: s.order.id,
  order_code: s.order.code,
  client_name: s.people.name(),
});
const validNotification = () => ({ type: 'default', level: 'default', title: 'Reliability', text: 'hostile body' });
const ZONE_IP = `fe80::1%${'a'.repeat(100)}`;

const customValues = (n: number) => Object.fromEntries(range(n).map((i) => [String(i), 'x']));

const CASES: HostileCase[] = [
  {
    id: 'order create: %n holiday strings',
    method: 'POST',
    path: () => '/v2/order/create/',
    items: 35_000,
    body: (n) => ({ ...validOrder(), callHolidayOverrides: Array(n).fill('31 декабря 2026 г.') }),
  },
  {
    id: 'order create: customValues %n keys',
    method: 'POST',
    path: () => '/v2/order/create/',
    items: 40_000,
    body: (n) => ({ ...validOrder(), customValues: customValues(n) }),
  },
  {
    id: 'lead create: customValues %n keys',
    method: 'POST',
    path: () => '/v2/lead/create/',
    items: 40_000,
    body: (n) => ({ ...validLead(), customValues: customValues(n) }),
  },
  { id: 'lead create: %n unknown keys', method: 'POST', path: () => '/v2/lead/create/', items: 60_000, body: (n) => ({ ...manyKeys(n), ...validLead() }) },
  {
    id: 'lead create-async: %n unknown keys',
    method: 'POST',
    path: () => '/v2/lead/create-async/',
    items: 60_000,
    body: (n) => ({ ...manyKeys(n), ...validLead() }),
  },
  { id: 'v1 lead create: %n unknown keys', method: 'POST', path: () => '/v1/lead/create/', items: 60_000, body: (n) => ({ ...manyKeys(n), ...validLeadV1() }) },
  {
    id: 'notification public: %n unknown keys',
    method: 'POST',
    path: () => '/v1/notification/public/',
    items: 60_000,
    body: (n) => ({ ...manyKeys(n), ...validNotification() }),
  },
  {
    id: 'order create: %n transferNumbers',
    method: 'POST',
    path: () => '/v2/order/create/',
    items: 15_000,
    body: (n) => ({ ...validOrder(), transferNumbers: range(n).map((i) => ({ number: `+7495${String(i).padStart(7, '0')}` })) }),
  },
  {
    id: 'order create: %n agentUserIds',
    method: 'POST',
    path: () => '/v2/order/create/',
    items: 120_000,
    body: (n) => ({ ...validOrder(), agentUserIds: range(n) }),
  },
  { id: 'lead create: ip fe80::1%<100 letters>', method: 'POST', path: () => '/v2/lead/create/', body: () => ({ ...validLead(), ip: ZONE_IP }) },
  {
    id: 'lead update: ip fe80::1%<100 letters>',
    method: 'POST',
    path: () => `/v2/lead/update/${existingLeadId}/`,
    body: () => ({ ip: ZONE_IP }),
    fingerprint: async () => JSON.stringify((await s.db.query(`SELECT ip, updated_at FROM lead WHERE id = $1`, [existingLeadId])).rows),
  },
  {
    id: 'call list: 250 leadIds[] then limit=3',
    method: 'GET',
    path: () =>
      `/v2/call/?${range(250)
        .map((i) => `leadIds[]=${i}`)
        .join('&')}&limit=3`,
  },
];

/**
 * The route's body limit, found with bodies of blanks (invalid JSON, cheap to refuse): 413 above
 * the limit, 400 below. Bisected to 1 KiB; null when even 1 MiB is read.
 */
const limitCache = new Map<string, number | null>();
async function bodyLimit(method: string, path: string): Promise<number | null> {
  const route = path.replace(/\/\d+\//g, '/{id}/');
  if (limitCache.has(route)) return limitCache.get(route)!;
  const refused = async (bytes: number) => {
    const body = Buffer.from(`${' '.repeat(bytes - 1)}!`);
    // A server may answer 413 and close before reading the rest: the client then sees a reset.
    const r = await s.service.http.request(method, path, { body }).catch((e: unknown) => {
      if (e instanceof ConnectionError) return null;
      throw e;
    });
    return r === null || r.status === 413;
  };
  let lo = 1024;
  let hi = 1024 * 1024;
  let limit: number | null = null;
  if (await refused(hi)) {
    while (hi - lo > 1024) {
      const mid = Math.floor((lo + hi) / 2);
      if (await refused(mid)) hi = mid;
      else lo = mid;
    }
    limit = lo;
  }
  limitCache.set(route, limit);
  return limit;
}

/** The most items whose body stays under `bytes` (bodies grow linearly with their items). */
function itemsWithin(c: HostileCase, bytes: number): number {
  const size = (n: number) => Buffer.byteLength(JSON.stringify(c.body!(n)));
  const one = size(1);
  const perItem = (size(c.items!) - one) / (c.items! - 1);
  let n = Math.max(1, Math.floor((bytes - one) / perItem) + 1);
  while (n > 1 && size(n) > bytes) n = Math.floor(n * 0.98);
  return n;
}

/** Exact row counts of every table a request could write (background counters and heartbeats left out). */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await s.db.query<{ name: string }>(
    `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND (table_schema = 'public' OR (table_schema = 'pgboss' AND table_name = 'job'))
        AND table_name !~ '(_count_|^queue_consumer$|^migrations$|^demo_seed_step$|^rate_limit)'`,
  );
  const sql = tables.rows.map((t) => `SELECT '${t.name}' AS name, count(*)::int AS n FROM ${t.name}`).join(' UNION ALL ');
  const counts = await s.db.query<{ name: string; n: number }>(sql);
  return Object.fromEntries(counts.rows.map((r) => [r.name, r.n]));
}

function delta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of Object.keys(after)) if (after[k] !== before[k]) out[k] = after[k] - (before[k] ?? 0);
  return out;
}

async function attempt(c: HostileCase, n: number): Promise<{ res: HttpResult; stall: StallMeasurement; stored: Record<string, number>; bytes: number }> {
  // Serialised before the probe starts: the work of building the body is this process's, not the service's.
  const payload = c.body ? Buffer.from(JSON.stringify(c.body(n))) : undefined;
  const before = await rowCounts();
  const fpBefore = await c.fingerprint?.();
  const { result: res, measurement } = await probe.during(() => s.service.http.request(c.method, c.path(), { body: payload, timeoutMs: 180_000 }));
  // An accepted async job may be written a moment later by a worker.
  if (res.status < 400) await new Promise((r) => setTimeout(r, 1500));
  const stored = delta(before, await rowCounts());
  if (c.fingerprint && (await c.fingerprint()) !== fpBefore) stored['(the updated row)'] = 1;
  return { res, stall: measurement, stored, bytes: payload?.length ?? 0 };
}

beforeAll(async () => {
  s = await startScenario('hostile', '918');
  probe = new LivenessProbe(`http://127.0.0.1:${s.service.port}`);
  sipEndpointId = await demoSipEndpointId(s.db);
  existingLeadId = (await s.db.query<{ id: number }>(`SELECT id FROM lead WHERE order_id = $1 ORDER BY id LIMIT 1`, [s.order.id])).rows[0].id;
}, 180_000);

afterAll(async () => {
  probe?.close();
  await writeFigures('hostile', {
    stallLimitMs: STALL_LIMIT_MS,
    cases: results,
    summary: results.map((r) => [
      r.id,
      `HTTP ${r.status}, stall ${r.stall.stallMs} ms (idle p50 ${r.stall.idleP50Ms} / max ${r.stall.idleMaxMs}, during max ${r.stall.duringMaxMs}), ` +
        `stored ${Object.keys(r.storedDelta).length ? JSON.stringify(r.storedDelta) : 'nothing'}`,
    ]),
  });
  await s?.close();
}, 60_000);

/** Measures one body (again, up to 3 times, when a short stall may be the machine's noise) and checks it. */
async function check(c: HostileCase, n: number, size: string): Promise<void> {
  const label = `${c.id.replace('%n', n.toLocaleString('en-US'))}${size}`;
  const attempts: number[] = [];
  let last = await attempt(c, n);
  attempts.push(last.stall.stallMs);
  const clean = (a: typeof last) => a.res.status >= 400 && a.res.status < 500 && Object.keys(a.stored).length === 0;
  while (clean(last) && last.stall.stallMs > STALL_LIMIT_MS && last.stall.stallMs < REMEASURE_BELOW_MS && attempts.length < 3) {
    const again = await attempt(c, n);
    attempts.push(again.stall.stallMs);
    if (!clean(again) || again.stall.stallMs < last.stall.stallMs) last = again;
  }
  results.push({
    id: label,
    status: last.res.status,
    bodyBytes: last.bytes,
    storedDelta: last.stored,
    stall: last.stall,
    attempts,
    responseMs: Math.round(last.res.ms),
  });

  const problems: string[] = [];
  if (last.res.status < 400 || last.res.status >= 500)
    problems.push(`answered ${last.res.status} (${String(last.res.body?.message ?? '').slice(0, 200)}), expected 4xx`);
  if (last.stall.stallMs > STALL_LIMIT_MS)
    problems.push(`event loop stalled ${last.stall.stallMs} ms (limit ${STALL_LIMIT_MS}; idle p50 ${last.stall.idleP50Ms} ms)`);
  if (Object.keys(last.stored).length) problems.push(`stored ${JSON.stringify(last.stored)}`);
  expect(problems).toEqual([]);
}

describe('hostile bodies: 4xx, no event-loop stall over 50 ms, nothing stored', () => {
  describe('at the nominal size', () => {
    it.each(CASES.map((c) => [c.id.replace('%n', c.items?.toLocaleString('en-US') ?? ''), c] as const))('%s', (_id, c) => check(c, c.items ?? 1, ''));
  });

  describe("filled to just under the route's body limit", () => {
    const scalable = CASES.filter((c) => c.items !== undefined);
    it.each(scalable.map((c) => [c.id.replace('%n', 'N'), c] as const))('%s', async (_id, c) => {
      const limit = await bodyLimit(c.method, c.path());
      // When the nominal body fits under the limit (e.g. one 1 MiB limit for all), it is the largest one.
      const n = Math.min(c.items!, itemsWithin(c, (limit ?? 1024 * 1024) - 256));
      await check(c, n, ` (route limit ${limit === null ? '>= 1024' : Math.round(limit / 1024)} KiB)`);
    });
  });
});
