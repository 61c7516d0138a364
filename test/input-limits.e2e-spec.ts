import { appendFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import request from 'supertest';
import { MAX_ARRAY_ITEMS, MAX_OBJECT_KEYS, MAX_VALUES } from '../src/common/input-checks';
import { MAX_IDS_PER_FILTER, QUERY_PARAMETER_LIMIT } from '../src/common/query';
import { createLeadOrder, leadBody, TestOrder } from './factories/leads';
import { notificationBody } from './factories/notifications';
import { insertOrderReferences, minimalOrderBody, OrderRefs } from './factories/orders';
import { collectGarbage, cpuMsSince } from './support/cpu-time';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Hostile bodies and query strings (issue 8, "One request can freeze an instance"): each is
 * refused with a 4xx naming the field and the limit, stores nothing, and holds the event loop
 * for less than 50 ms. Two measures per request, taken in this process, where the app runs:
 * - cpuMs: main-thread CPU time over the whole request, after a full collection (cpu-time.ts),
 *   an upper bound of any stall it caused and independent of what else loads the machine;
 *   asserted < 50 ms.
 * - stallMs: the longest event-loop delay seen (monitorEventLoopDelay) while it ran. Wall time,
 *   so other processes on a loaded machine inflate it: asserted < 50 ms times the machine's load
 *   per core (at least 1), and reported as measured.
 * Each request is sent PROBE_TRIES times and the least of each measure is kept: what else shares
 * the machine only adds to a try, so the least is the request's own cost (as the benches keep the
 * least disturbed round). Every try answers the same; the first try's answer is returned.
 * INPUT_LIMITS_REPORT=<file> appends every try's figures to that file.
 */
const BUDGET_MS = 50;
const KiB = 1024;

interface Probe {
  status: number;
  body: { success: boolean; message: string; data: unknown };
  cpuMs: number;
  stallMs: number;
  wallMs: number;
}

const PROBE_TRIES = 3;

/** One try: the request's answer and its CPU, stall and wall time. */
async function measure(send: () => request.Test): Promise<Probe> {
  collectGarbage();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const cpuBefore = process.threadCpuUsage();
  const started = performance.now();
  delay.enable();
  const res = await send();
  delay.disable();
  const cpuMs = cpuMsSince(cpuBefore);
  return {
    status: res.status,
    body: res.body,
    cpuMs,
    stallMs: delay.count > 0 ? delay.max / 1e6 : 0,
    wallMs: performance.now() - started,
  };
}

async function probe(label: string, send: () => request.Test): Promise<Probe> {
  const tries: Probe[] = [];
  for (let i = 0; i < PROBE_TRIES; i++) {
    const p = await measure(send);
    tries.push(p);
    if (process.env.INPUT_LIMITS_REPORT) {
      const fig = (n: number) => n.toFixed(1).padStart(7);
      appendFileSync(
        process.env.INPUT_LIMITS_REPORT,
        `${label.padEnd(58)} ${String(p.status)} stall ${fig(p.stallMs)} ms  cpu ${fig(p.cpuMs)} ms  wall ${fig(p.wallMs)} ms  load ${loadavg()[0].toFixed(1)}\n`,
      );
    }
  }
  const least = (pick: (p: Probe) => number) => Math.min(...tries.map(pick));
  for (const p of tries.slice(1)) expect(p.status).toBe(tries[0].status);
  return { ...tries[0], cpuMs: least((p) => p.cpuMs), stallMs: least((p) => p.stallMs), wallMs: least((p) => p.wallMs) };
}

/** The wall-clock budget: 50 ms on an idle machine, scaled by the load per core when others share it. */
const stallBudget = () => BUDGET_MS * Math.max(1, loadavg()[0] / cpus().length);

function expectQuick(p: Probe): void {
  expect({ cpuMs: p.cpuMs, under: p.cpuMs < BUDGET_MS }).toEqual({ cpuMs: p.cpuMs, under: true });
  expect({ stallMs: p.stallMs, under: p.stallMs < stallBudget() }).toEqual({ stallMs: p.stallMs, under: true });
}

function expectRefused(p: Probe, field: string, message: RegExp): void {
  expect(p.status).toBe(400);
  expect(p.body.success).toBe(false);
  expect((p.body.data as { errors: unknown[] }).errors).toEqual([{ field, message: expect.stringMatching(message) }]);
  expect(p.body.message).toMatch(field);
}

const keys = (n: number, prefix = '') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i + 1}`, 'x']));
const RU_MONTHS = ['января', 'февраля', 'марта', 'апреля', 'мая', 'июня', 'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря'];

describe('input limits: no request within the limits holds the event loop', () => {
  let t: TestApp;
  let order: TestOrder;
  let refs: OrderRefs;
  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
    order = await createLeadOrder(t);
    refs = await insertOrderReferences(t.ds);
  });
  afterAll(async () => {
    await t.close();
  });

  const post =
    (path: string, json: string, key: string | null = t.apiKey) =>
    () => {
      const r = request(t.http).post(path).set('Content-Type', 'application/json');
      return (key ? r.set('X-Api-Key', key) : r).send(json);
    };
  const footprint = async () =>
    (
      await t.ds.query(`SELECT (SELECT count(*)::int FROM lead) AS leads, (SELECT count(*)::int FROM call_order) AS orders,
        (SELECT count(*)::int FROM order_transfer_number) AS transfers, (SELECT count(*)::int FROM notification) AS notifications,
        (SELECT count(*)::int FROM pgboss.job) AS jobs`)
    )[0];
  const v1Lead = (extra: object = {}) => ({ lead_type: 'straight', client_phone: '+79161230000', order_id: order.id, order_code: order.code, ...extra });

  it('measures a normal lead and order create first (baseline, and warms the routes up)', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await probe('baseline: lead create', post('/v2/lead/create/', JSON.stringify(leadBody(order))))).status).toBe(200);
      expect((await probe('baseline: order create', post('/v2/order/create/', JSON.stringify(minimalOrderBody(refs))))).status).toBe(200);
    }
    expectQuick(await probe('baseline: lead create (warm)', post('/v2/lead/create/', JSON.stringify(leadBody(order)))));
  });

  describe('bodies over the route limit: 413 naming it, before any parsing', () => {
    it.each([
      [
        '/v2/order/create/',
        '256 KiB',
        'order with the issue 35,000 holidays',
        () => minimalOrderBody(refs, { callHolidayOverrides: Array(35_000).fill('31 декабря 2026 г.') }),
      ],
      ['/v2/order/create/', '256 KiB', 'order with 40,000 customValues', () => minimalOrderBody(refs, { customValues: keys(40_000) })],
      ['/v2/lead/create/', '256 KiB', 'lead with 40,000 customValues', () => leadBody(order, { customValues: keys(40_000) })],
      ['/v2/lead/create/', '256 KiB', 'lead with 60,000 unknown keys', () => ({ ...leadBody(order), ...keys(60_000, 'k') })],
      [
        '/v2/order/create/',
        '256 KiB',
        'order with 120,000 agentUserIds',
        () => minimalOrderBody(refs, { agentUserIds: Array.from({ length: 120_000 }, (_, i) => i + 1) }),
      ],
      ['/v1/notification/public/', '32 KiB', 'notification of 40 KiB', () => notificationBody({ text: 'x'.repeat(40 * KiB) })],
    ])('%s (%s): %s', async (path, limit, label, body) => {
      const before = await footprint();
      const p = await probe(`413: ${label}`, post(path, JSON.stringify(body())));
      expect({ status: p.status, body: p.body }).toEqual({
        status: 413,
        body: { success: false, message: `Request body exceeds the ${limit} limit of this route`, data: [] },
      });
      expectQuick(p);
      expect(await footprint()).toEqual(before);
    });

    it('answers 401 first to a caller without a valid key, whatever the size', async () => {
      const big = JSON.stringify({ ...leadBody(order), ...keys(60_000, 'k') });
      expect((await probe('401: 60,000 keys, no key', post('/v2/lead/create/', big, null))).status).toBe(401);
      expect((await probe('401: 60,000 keys, unknown key', post('/v2/lead/create/', big, 'cck_not-a-real-key'))).status).toBe(401);
    });

    it('reads a lead body of any valid size: a 65,535-character Cyrillic sourceComment', async () => {
      const p = await probe(
        '200: lead with the longest sourceComment',
        post('/v2/lead/create/', JSON.stringify(leadBody(order, { sourceComment: 'ж'.repeat(65_535) }))),
      );
      expect(p.status).toBe(200);
      expectQuick(p);
    });
  });

  describe('hostile shapes within the limit: 400 at the edge, before class-transformer', () => {
    const unknownKeys = (n: number) => keys(n, 'k');
    it.each([
      [
        '/v2/lead/create/',
        'lead create, 18,000 unknown keys',
        () => ({ ...leadBody(order), ...unknownKeys(18_000) }),
        'body',
        `at most ${MAX_OBJECT_KEYS} keys`,
      ],
      [
        '/v2/lead/create-async/',
        'lead create-async, 18,000 unknown keys',
        () => ({ ...leadBody(order), ...unknownKeys(18_000) }),
        'body',
        `at most ${MAX_OBJECT_KEYS} keys`,
      ],
      ['/v1/lead/create/', 'v1 lead create, 18,000 unknown keys', () => v1Lead(unknownKeys(18_000)), 'body', `at most ${MAX_OBJECT_KEYS} keys`],
      [
        '/v1/notification/public/',
        'notification, 2,000 unknown keys',
        () => ({ ...notificationBody(), ...unknownKeys(2_000) }),
        'body',
        `at most ${MAX_OBJECT_KEYS} keys`,
      ],
      [
        '/v2/lead/create/',
        'lead, 20,000 customValues',
        () => leadBody(order, { customValues: keys(20_000) }),
        'customValues',
        `at most ${MAX_OBJECT_KEYS} keys`,
      ],
      [
        '/v2/order/create/',
        'order, 20,000 customValues',
        () => minimalOrderBody(refs, { customValues: keys(20_000) }),
        'customValues',
        `at most ${MAX_OBJECT_KEYS} keys`,
      ],
      [
        '/v2/order/create/',
        'order, 5,000 holidays',
        () => minimalOrderBody(refs, { callHolidayOverrides: Array(5_000).fill('31 декабря 2026 г.') }),
        'callHolidayOverrides',
        `at most ${MAX_ARRAY_ITEMS} items`,
      ],
      [
        '/v2/order/create/',
        'order, 10,000 transferNumbers',
        () => minimalOrderBody(refs, { transferNumbers: Array.from({ length: 10_000 }, (_, i) => ({ number: String(i) })) }),
        'transferNumbers',
        `at most ${MAX_ARRAY_ITEMS} items`,
      ],
      [
        '/v2/order/create/',
        'order, 30,000 agentUserIds',
        () => minimalOrderBody(refs, { agentUserIds: Array.from({ length: 30_000 }, (_, i) => i + 1) }),
        'agentUserIds',
        `at most ${MAX_ARRAY_ITEMS} items`,
      ],
      [
        '/v2/lead/create/',
        'lead, 20 x 1,000 values in an unknown field',
        () => leadBody(order, { junk: Array.from({ length: 20 }, () => Array(1000).fill(0)) }),
        'body',
        `at most ${MAX_VALUES} values`,
      ],
    ])('%s: %s', async (path, label, body, field, message) => {
      const json = JSON.stringify(body());
      const before = await footprint();
      const p = await probe(`400 edge: ${label} (${Math.round(json.length / KiB)} KiB)`, post(path, json));
      expectRefused(p, field, new RegExp(message));
      expectQuick(p);
      expect(await footprint()).toEqual(before);
    });
  });

  describe('per-field caps: 400 naming the field and the cap', () => {
    it.each([
      [
        '/v2/order/create/',
        'order, 1,000 holidays',
        () => minimalOrderBody(refs, { callHolidayOverrides: Array(1000).fill('31 декабря 2026 г.') }),
        'callHolidayOverrides',
        /at most 366 dates/,
      ],
      [
        '/v2/order/create/',
        'order, a 41-character holiday',
        () => minimalOrderBody(refs, { callHolidayOverrides: ['31.12.2026', '31.12.2026'.padEnd(41, ' ')] }),
        'callHolidayOverrides',
        /item 1 must be at most 40 characters/,
      ],
      [
        '/v2/order/create/',
        'order, 1,000 transferNumbers',
        () => minimalOrderBody(refs, { transferNumbers: Array.from({ length: 1000 }, (_, i) => ({ number: String(i) })) }),
        'transferNumbers',
        /no more than 50/,
      ],
      ['/v2/order/create/', 'order, 201 customValues', () => minimalOrderBody(refs, { customValues: keys(201) }), 'customValues', /at most 200 values/],
      ['/v2/lead/create/', 'lead, 201 customValues', () => leadBody(order, { customValues: keys(201) }), 'customValues', /at most 200 values/],
      ['/v2/lead/create/', 'lead, ip with a 100-letter zone id', () => leadBody(order, { ip: `fe80::1%${'a'.repeat(100)}` }), 'ip', /64 characters/],
      [
        '/v2/lead/create-async/',
        'lead create-async, ip with a 100-letter zone id',
        () => leadBody(order, { ip: `fe80::1%${'a'.repeat(100)}` }),
        'ip',
        /64 characters/,
      ],
    ])('%s: %s', async (path, label, body, field, message) => {
      const before = await footprint();
      const p = await probe(`400 field: ${label}`, post(path, JSON.stringify(body())));
      expectRefused(p, field, message);
      expectQuick(p);
      expect(await footprint()).toEqual(before);
    });

    it('refuses an ip with a long zone id on update too, and keeps a short one', async () => {
      const created = await request(t.http)
        .post('/v2/lead/create/')
        .set('X-Api-Key', t.apiKey)
        .send(leadBody(order, { ip: 'fe80::1%eth0' }))
        .expect(200);
      const id = created.body.data.id as number;
      const p = await probe(
        '400 field: lead update, ip with a long zone id',
        post(`/v2/lead/update/${id}/`, JSON.stringify({ ip: `fe80::1%${'a'.repeat(100)}` })),
      );
      expectRefused(p, 'ip', /64 characters/);
      expect((await t.ds.query(`SELECT ip FROM lead WHERE id = $1`, [id]))[0].ip).toBe('fe80::1%eth0');
    });
  });

  describe('the largest valid bodies are quick too', () => {
    it('stores a year of distinct holidays in Russian month names (the slowest layout)', async () => {
      const holidays = Array.from({ length: 366 }, (_, i) => `${(i % 28) + 1} ${RU_MONTHS[Math.floor(i / 28) % 12]} ${2027 + Math.floor(i / 336)} г.`);
      const p = await probe(
        '200: order with 366 distinct Russian holidays',
        post('/v2/order/create/', JSON.stringify(minimalOrderBody(refs, { callHolidayOverrides: holidays }))),
      );
      expect(p.status).toBe(200);
      expectQuick(p);
      const stored = await t.ds.query(`SELECT cardinality(call_holiday_overrides) AS n FROM call_order WHERE id = $1`, [(p.body.data as { id: number }).id]);
      expect(stored[0].n).toBe(new Set(holidays).size);
    });

    it('refuses 1,000 agentUserIds that do not exist by naming them, quickly', async () => {
      const p = await probe(
        '400: order with 1,000 unknown agentUserIds',
        post('/v2/order/create/', JSON.stringify(minimalOrderBody(refs, { agentUserIds: Array.from({ length: 1000 }, (_, i) => 2_000_000 + i) }))),
      );
      expect(p.status).toBe(400);
      expectQuick(p);
    });
  });

  describe('query strings', () => {
    const get =
      (path: string, key: string | null = t.apiKey) =>
      () =>
        key ? request(t.http).get(path).set('X-Api-Key', key) : request(t.http).get(path);
    const leadIds = (n: number) => Array.from({ length: n }, (_, i) => `leadIds[]=${i + 1}`).join('&');

    it(`refuses parameters past ${QUERY_PARAMETER_LIMIT} instead of dropping them (250 leadIds[] then limit=3)`, async () => {
      const p = await probe('400 query: 250 leadIds[] then limit=3', get(`/v2/call/?${leadIds(250)}&limit=3`));
      expectRefused(p, 'query', new RegExp(`at most ${QUERY_PARAMETER_LIMIT} parameters`));
      expectQuick(p);
      expect((await probe('401 query: 250 leadIds[], no key', get(`/v2/call/?${leadIds(250)}&limit=3`, null))).status).toBe(401);
    });

    it(`caps ids per filter at ${MAX_IDS_PER_FILTER}, in every array form`, async () => {
      const ids = Array.from({ length: MAX_IDS_PER_FILTER + 1 }, (_, i) => i + 1);
      for (const q of [leadIds(MAX_IDS_PER_FILTER + 1), `leadIds=${ids.join(',')}`, `orderIds=${ids.join(',')}`]) {
        const p = await probe(`400 query: ${MAX_IDS_PER_FILTER + 1} ids (${q.slice(0, 9)})`, get(`/v2/call/?${q}`));
        expect(p.status).toBe(400);
        expect((p.body.data as { errors: { field: string; message: string }[] }).errors[0].message).toMatch(`at most ${MAX_IDS_PER_FILTER} ids`);
      }
      const ok = await request(t.http)
        .get(`/v2/call/?${leadIds(MAX_IDS_PER_FILTER)}&limit=3`)
        .set('X-Api-Key', t.apiKey)
        .expect(200);
      expect(ok.body.data.list).toEqual([]);
      await request(t.http)
        .get(`/v2/lead/?orderIds=${ids.join(',')}`)
        .set('X-Api-Key', t.apiKey)
        .expect(400);
    });

    it('accepts createdAt[0]=...T00:00:00+00:00 sent unencoded (the + arrives as a space)', async () => {
      const id = (await request(t.http).post('/v2/lead/create/').set('X-Api-Key', t.apiKey).send(leadBody(order)).expect(200)).body.data.id as number;
      const [{ at }] = await t.ds.query(`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS at FROM lead WHERE id = $1`, [id]);
      // Raw path: supertest must not encode the +.
      const res = await request(t.http).get(`/v2/lead/?createdAt[0]=${at}+00:00&createdAt[1]=${at}+00:00&limit=100`).set('X-Api-Key', t.apiKey).expect(200);
      expect(res.body.data.list.map((l: { id: number }) => l.id)).toContain(id);
      await request(t.http).get(`/v2/lead/?createdAt[0]=2026-01-01 00:00`).set('X-Api-Key', t.apiKey).expect(400);
    });
  });

  describe('the OpenAPI document states the caps', () => {
    it('has maxItems, maxLength and maxProperties on the fields and the body limit on each operation', async () => {
      const doc = (await request(t.http).get('/docs-json').set('X-Api-Key', t.apiKey).expect(200)).body;
      const props = (name: string) => doc.components.schemas[name].properties;
      expect(props('CreateOrderDto').callHolidayOverrides).toMatchObject({ maxItems: 366, items: { maxLength: 40 } });
      expect(props('CreateOrderDto').customValues).toMatchObject({ maxProperties: 200 });
      expect(props('CreateOrderDto').agentUserIds).toMatchObject({ maxItems: 1000 });
      expect(props('CreateOrderDto').transferNumbers).toMatchObject({ maxItems: 50 });
      expect(props('CreateLeadV2Dto').ip).toMatchObject({ maxLength: 64 });
      expect(props('CreateLeadV2Dto').customValues).toMatchObject({ maxProperties: 200 });
      expect(doc.paths['/v2/lead/create'].post.description).toMatch('Body limit: 256 KiB');
      expect(doc.paths['/v1/notification/public'].post.description).toMatch('Body limit: 32 KiB');
      expect(doc.info.description).toMatch(`at most ${QUERY_PARAMETER_LIMIT} parameters`);
    });
  });
});
