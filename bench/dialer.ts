import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import type { AppReady } from './support/app-builds';
import { ChildServer, startChild } from './support/child';
import { createBenchDatabase, describeMachine, startBenchCluster } from './support/cluster';
import { checkpoint, dncPhone, SQL_PARAMS, SQL_PHONE } from './support/dnc-data';
import { mdRow } from './support/measured-load';
import { settle } from './support/realistic-data';
import { BenchSection } from './support/report';

/**
 * The dialer's claims at a million leads (`npm run bench -- dialer`): 1,000,000 leads in 50 orders of different sizes and dial weights
 * (a third due now, the rest planned later, stopped or held by a do-not-call entry), then 20 dialers each claiming 50 leads in a loop
 * with 60 s leases, recording a call for half and releasing the rest, while do-not-call adds and lead creates run beside them. Before
 * the load, sequential claims of 100 leads on the quiet service. Checks: no lead handed out while a live claim of ours held it, none
 * handed out after a do-not-call add of its number answered, each order's share of the leads within 10% of its weight's.
 */

const LEADS = Number(process.env.BENCH_DIALER_LEADS ?? 1_000_000);
const ORDERS = 50;
const DIALERS = 20;
const PER_CLAIM = 50;
const SECONDS = Number(process.env.BENCH_DIALER_SECONDS ?? 30);
const QUIET_CLAIMS = 40;
const CHUNK = 200_000;
/** How the dialers report their calls: `batch` (one POST /v2/call/create-batch/ per claim's calls) or `single` (one request each). */
const CALLS = process.env.BENCH_DIALER_CALLS === 'single' ? 'single' : 'batch';

interface Claimed {
  claimToken: string;
  leadId: number;
  orderId: number;
  phone: string;
}

interface Tally {
  latencies: number[];
  claims: number;
  handedOut: Map<number, number>;
  doubleClaims: number;
  heldHandedOut: number;
  calls: number;
  releases: number;
  errors: string[];
}

export async function dialerBench(): Promise<BenchSection> {
  const cluster = await startBenchCluster();
  const db = await createBenchDatabase(cluster);
  const machine = await describeMachine(db.url);
  const pool = new Pool({ connectionString: db.url, max: 2 });
  let app: ChildServer<AppReady> | undefined;
  try {
    const orders = await seed(pool);
    await settle(db.url, pool);
    await checkpoint(pool);
    app = await startChild<AppReady>('app-server.js', {
      BENCH_APP_DATABASE_URL: db.url,
      BENCH_APP_ENV: JSON.stringify({ WORKERS: '0', API_KEY_CACHE_TTL_MS: '5000' }),
    });
    const call = client(app.ready);
    const quiet = await quietClaims(call);
    const due = await dueByOrder(pool);
    if (cluster.statements) await pool.query(`SELECT pg_stat_statements_reset()`);
    const tally = await load(call, pool, orders);
    const statements = cluster.statements ? await topStatements(pool, tally.elapsed) : [];
    const markdown = [report(quiet, tally, orders, due), ...statementTable(statements)].join('\n');
    machine.loadEnd = os.loadavg()[0];
    return {
      bench: 'dialer',
      machine,
      markdown,
      data: {
        leads: LEADS,
        orders: ORDERS,
        dialers: DIALERS,
        perClaim: PER_CLAIM,
        seconds: SECONDS,
        recording: CALLS,
        quiet,
        ...summary(tally),
        perOrder: perOrder(tally, orders, due),
        statements,
      },
    };
  } finally {
    await app?.stop();
    await pool.end();
    await db.drop();
    await cluster.stop();
  }
}

/** 50 orders dialling any time, weights 1..10, sizes falling as 1/sqrt(k); LEADS leads over them, set-based in chunks. */
async function seed(pool: Pool): Promise<Map<number, number>> {
  const anyTime = JSON.stringify(Array.from({ length: 7 }, () => ['00:00', '24:00']));
  const weights = new Map<number, number>();
  for (let k = 1; k <= ORDERS; k++) {
    const weight = 1 + ((k * 7) % 10);
    const { rows } = await pool.query(
      `INSERT INTO call_order (code, service_title, title, status, call_schedule, auto_dialing_enabled, dial_weight)
       VALUES ($1, 'Bench', $1, 'success', $2::jsonb, true, $3) RETURNING id`,
      [`dialer-${k}`, anyTime, weight],
    );
    weights.set(rows[0].id as number, weight);
  }
  const ids = [...weights.keys()];
  // Order slots: order k in proportion to 1 / sqrt(k).
  const h = ids.reduce((s, _, k) => s + 1 / Math.sqrt(k + 1), 0);
  const slots = ids.flatMap((id, k) => new Array<number>(Math.max(1, Math.round(1000 / Math.sqrt(k + 1) / h))).fill(id));
  const hash = (seed: number) => `abs(hashint4extended(i, ${seed}))`;
  for (let a = 0; a < LEADS; a += CHUNK) {
    await pool.query(
      `INSERT INTO lead (order_id, phone, lead_type, status_id, utc_offset, time_zone, source, priority, planning_call_at, dial_after,
                         dialing_hold, dialing_hold_since, created_at, updated_at)
       SELECT ($6::int[])[1 + ${hash(1)} % cardinality($6::int[])], ${SQL_PHONE('i')}, 'straight', 1, 3, 'Europe/Moscow', 'organic',
              CASE WHEN ${hash(2)} % 100 < 80 THEN 0 WHEN ${hash(2)} % 100 < 95 THEN 1 + ${hash(3)} % 3 ELSE 5 + ${hash(3)} % 6 END,
              p.at, CASE WHEN p.kind = 'stopped' THEN NULL ELSE coalesce(p.at, now()) END,
              CASE WHEN p.kind = 'held' THEN '{dnc}'::varchar[] END, CASE WHEN p.kind = 'held' THEN now() END,
              now() - make_interval(mins => (${hash(5)} % 43200)::int), now()
       FROM generate_series($7::int, $8::int - 1) AS i
       CROSS JOIN LATERAL (SELECT CASE WHEN ${hash(4)} % 100 < 35 THEN 'due' WHEN ${hash(4)} % 100 < 75 THEN 'later'
                                       WHEN ${hash(4)} % 100 < 90 THEN 'stopped' ELSE 'held' END AS kind) k
       CROSS JOIN LATERAL (SELECT k.kind, CASE k.kind WHEN 'due' THEN now() - make_interval(secs => (${hash(6)} % 172800)::int)
                                                  WHEN 'later' THEN now() + make_interval(secs => (3600 + ${hash(6)} % 259200)::int) END AS at) p`,
      [...SQL_PARAMS(), slots, a, Math.min(LEADS, a + CHUNK)],
    );
  }
  await pool.query(`INSERT INTO sip_endpoint (number, title) VALUES ('+74950000001', 'Bench line')`);
  return weights;
}

async function dueByOrder(pool: Pool): Promise<Map<number, number>> {
  const { rows } = await pool.query(
    `SELECT order_id AS "orderId", count(*)::int AS n FROM lead WHERE planning_call_at <= now() AND dialing_hold IS NULL GROUP BY order_id`,
  );
  return new Map(rows.map((r: { orderId: number; n: number }) => [r.orderId, r.n]));
}

type Call = <T>(path: string, body: object) => Promise<{ status: number; data: T }>;

function client(ready: AppReady): Call {
  return async <T>(path: string, body: object) => {
    const res = await fetch(`${ready.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': ready.apiKey! },
      body: JSON.stringify(body),
    });
    return { status: res.status, data: ((await res.json()) as { data: T }).data };
  };
}

/** Sequential claims of 100 on the quiet service, each released at once: the claim's own latency. */
async function quietClaims(call: Call): Promise<{ p50: number; p99: number; leads: number }> {
  const ms: number[] = [];
  let leads = 0;
  for (let i = 0; i < QUIET_CLAIMS; i++) {
    const started = performance.now();
    const res = await call<{ list: Claimed[] }>('/v2/dialer/claim/', { dialerId: 'quiet', limit: 100, leaseSeconds: 60 });
    ms.push(performance.now() - started);
    leads += res.data.list.length;
    await call('/v2/dialer/release/', { claimTokens: res.data.list.map((c) => c.claimToken) });
  }
  return { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), leads };
}

/** The load: DIALERS claim loops, a do-not-call adder and a lead creator, for SECONDS. */
async function load(call: Call, pool: Pool, orders: Map<number, number>): Promise<Tally & { elapsed: number }> {
  const t: Tally = { latencies: [], claims: 0, handedOut: new Map(), doubleClaims: 0, heldHandedOut: 0, calls: 0, releases: 0, errors: [] };
  const live = new Set<number>();
  /** Phones whose add had answered, with when (performance.now()). */
  const listed = new Map<string, number>();
  const { rows } = await pool.query(`SELECT phone FROM lead WHERE planning_call_at <= now() AND dialing_hold IS NULL ORDER BY random() LIMIT 2000`);
  const toList = rows.map((r: { phone: string }) => r.phone);
  const ids = [...orders.keys()];
  const started = performance.now();
  const running = () => performance.now() - started < SECONDS * 1000;
  const note = (what: string, status: number, data: unknown) =>
    t.errors.length < 5 && t.errors.push(`${what}: ${status} ${JSON.stringify(data).slice(0, 200)}`);
  const dialer = async (n: number) => {
    while (running()) {
      const asked = performance.now();
      const res = await call<{ list: Claimed[] }>('/v2/dialer/claim/', { dialerId: `bench-${n}`, limit: PER_CLAIM, leaseSeconds: 60 });
      t.latencies.push(performance.now() - asked);
      if (res.status !== 200) {
        note('claim', res.status, res.data);
        continue;
      }
      t.claims++;
      const list = res.data.list;
      for (const c of list) {
        if (live.has(c.leadId)) t.doubleClaims++;
        live.add(c.leadId);
        const at = listed.get(c.phone);
        if (at !== undefined && at < asked) t.heldHandedOut++;
        t.handedOut.set(c.orderId, (t.handedOut.get(c.orderId) ?? 0) + 1);
      }
      const called = list.slice(0, Math.ceil(list.length / 2));
      const released = list.slice(called.length);
      await record(call, called, note);
      t.calls += called.length;
      for (const c of called) live.delete(c.leadId);
      if (released.length) {
        const r = await call('/v2/dialer/release/', { claimTokens: released.map((c) => c.claimToken) });
        if (r.status !== 200) note('release', r.status, r.data);
        t.releases += released.length;
        for (const c of released) live.delete(c.leadId);
      }
    }
  };
  const adder = async () => {
    for (let i = 0; running() && i * 20 < toList.length; i++) {
      const phones = toList.slice(i * 20, i * 20 + 20);
      const r = await call('/v2/dnc/add/', { phones, reason: 'bench' });
      if (r.status !== 200) note('dnc add', r.status, r.data);
      const at = performance.now();
      for (const p of phones) listed.set(p, at);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  const creator = async () => {
    for (let i = 0; running(); i++) {
      const orderId = ids[i % ids.length];
      const r = await call('/v2/lead/create/', {
        leadType: 'straight',
        phone: dncPhone(3_000_000 + i),
        orderId,
        orderCode: `dialer-${ids.indexOf(orderId) + 1}`,
        name: 'Bench',
      });
      if (r.status !== 200) note('create', r.status, r.data);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await Promise.all([...Array.from({ length: DIALERS }, (_, n) => dialer(n)), adder(), creator()]);
  return { ...t, elapsed: (performance.now() - started) / 1000 };
}

/** A call body for a claimed lead (a status of the catalogue's first five, by lead). */
function callBody(c: Claimed) {
  return {
    claimToken: c.claimToken,
    platformCallId: `bench-${c.claimToken}`,
    leadId: c.leadId,
    orderId: c.orderId,
    sipEndpointId: 1,
    statusId: 2 + (c.leadId % 4),
    direction: 'outgoing',
    totalDurationSeconds: 20,
    waitTimeDurationSeconds: 20,
    talkTimeDurationSeconds: 0,
  };
}

/** Records the calls of `called`, as CALLS says; refusals go to `note`. */
async function record(call: Call, called: Claimed[], note: (what: string, status: number, data: unknown) => unknown): Promise<void> {
  if (called.length === 0) return;
  if (CALLS === 'single') {
    await Promise.all(
      called.map(async (c) => {
        const r = await call('/v2/call/create/', callBody(c));
        if (r.status !== 200) note('call', r.status, r.data);
      }),
    );
    return;
  }
  const r = await call<{ results: { success: boolean }[] }>('/v2/call/create-batch/', { calls: called.map(callBody) });
  if (r.status !== 200) note('call batch', r.status, r.data);
  else for (const item of r.data.results) if (!item.success) note('call in batch', 200, item);
}

interface StatementTime {
  query: string;
  calls: number;
  /** Milliseconds of PostgreSQL per second of the load: 1,000 is one core's worth. */
  msPerSecond: number;
  meanMs: number;
}

/** Where PostgreSQL spent the load: the service's statements by time (plan and execution), top level only (triggers inside them). */
async function topStatements(pool: Pool, seconds: number): Promise<StatementTime[]> {
  const { rows } = await pool.query<{ query: string; calls: string; ms: number }>(
    `SELECT query, calls, total_plan_time + total_exec_time AS ms FROM pg_stat_statements
      WHERE toplevel AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat_statements%'
      ORDER BY ms DESC LIMIT 8`,
  );
  return rows.map((r) => ({
    query: r.query.replace(/\s+/g, ' ').slice(0, 90),
    calls: Number(r.calls),
    msPerSecond: Math.round(r.ms / seconds),
    meanMs: Math.round((r.ms / Number(r.calls)) * 100) / 100,
  }));
}

function statementTable(statements: StatementTime[]): string[] {
  if (!statements.length) return [];
  return [
    '',
    'Where PostgreSQL spent the load (pg_stat_statements, top-level statements with the triggers they fired; ms per second of load):',
    '',
    mdRow(['Statement', 'calls', 'mean ms', 'ms per s']),
    mdRow(['---', '---:', '---:', '---:']),
    ...statements.map((x) => mdRow([`\`${x.query.replace(/\|/g, '\\|').replace(/`/g, "'")}\``, x.calls, x.meanMs, x.msPerSecond])),
  ];
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] * 10) / 10 : NaN;
}

function summary(t: Tally & { elapsed: number }) {
  const leads = [...t.handedOut.values()].reduce((a, b) => a + b, 0);
  return {
    claimsPerSecond: Math.round(t.claims / t.elapsed),
    leadsPerSecond: Math.round(leads / t.elapsed),
    claimP50: percentile(t.latencies, 0.5),
    claimP99: percentile(t.latencies, 0.99),
    handedOut: leads,
    calls: t.calls,
    releases: t.releases,
    doubleClaims: t.doubleClaims,
    heldHandedOut: t.heldHandedOut,
    errors: t.errors,
  };
}

/** Each order's share of the leads handed out against its weight's share, over the orders whose due leads did not run out. */
/** Per order: its weight, its due leads when the load started and the leads handed out. */
function perOrder(t: Tally, weights: Map<number, number>, due: Map<number, number>) {
  return [...weights].map(([id, weight]) => ({ id, weight, due: due.get(id) ?? 0, handedOut: t.handedOut.get(id) ?? 0 }));
}

function shares(t: Tally, weights: Map<number, number>, due: Map<number, number>): { worst: number; orders: number } {
  const open = [...weights.keys()].filter((id) => (t.handedOut.get(id) ?? 0) < 0.9 * (due.get(id) ?? 0));
  const total = open.reduce((n, id) => n + (t.handedOut.get(id) ?? 0), 0);
  const weight = open.reduce((n, id) => n + weights.get(id)!, 0);
  const worst = Math.max(...open.map((id) => Math.abs((t.handedOut.get(id) ?? 0) / total / (weights.get(id)! / weight) - 1)));
  return { worst: Math.round(worst * 1000) / 10, orders: open.length };
}

function report(quiet: { p50: number; p99: number; leads: number }, t: Tally & { elapsed: number }, weights: Map<number, number>, due: Map<number, number>) {
  const s = summary(t);
  const share = shares(t, weights, due);
  return [
    `${LEADS} leads in ${ORDERS} orders (weights 1..10, sizes falling as 1/sqrt(k)); ${[...due.values()].reduce((a, b) => a + b, 0)} due and not held ` +
      `when the load started. ${DIALERS} dialers claim ${PER_CLAIM} (60 s leases) in a loop for ${SECONDS} s, record a call for half ` +
      `(${CALLS === 'batch' ? 'in one POST /v2/call/create-batch/ per claim' : 'one POST /v2/call/create/ each'}) and release ` +
      `the rest, while 20 numbers of due leads go on the global list every second and a lead is created every 20 ms.`,
    '',
    mdRow(['Measure', 'Value', 'Goal']),
    mdRow(['---', '---:', '---']),
    mdRow(['claim of 100, quiet service, p50 / p99 ms', `${quiet.p50} / ${quiet.p99}`, 'p50 at most 20 ms']),
    mdRow(['claims per second (under load)', s.claimsPerSecond, '']),
    mdRow(['leads handed out per second', s.leadsPerSecond, 'at least 2,000']),
    mdRow(['claim of 50 under load, p50 / p99 ms', `${s.claimP50} / ${s.claimP99}`, '']),
    mdRow(['calls recorded / leads released', `${s.calls} / ${s.releases}`, '']),
    mdRow(['leads handed out while a live claim held them', s.doubleClaims, '0']),
    mdRow(['leads handed out after an add of their number answered', s.heldHandedOut, '0']),
    mdRow([`worst share off its weight's (of ${share.orders} orders)`, `${share.worst}%`, 'within 10%']),
    ...(s.errors.length ? ['', `Errors (first ${s.errors.length}): ${s.errors.join('; ')}`] : []),
  ].join('\n');
}
