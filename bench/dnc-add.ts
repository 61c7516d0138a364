import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { AppReady } from './support/app-builds';
import { ChildServer, startChild } from './support/child';
import { assignBenchClient } from './support/client-cases';
import { createBenchDatabase, describeMachine, startBenchCluster } from './support/cluster';
import { checkpoint, loadDncEntries, validDncPhones } from './support/dnc-data';
import { mdRow } from './support/measured-load';
import { settle, createPopulation, grow } from './support/realistic-data';
import { BenchSection } from './support/report';

/**
 * `POST /v2/dnc/add/` of 1,000 numbers onto the global list, each number the phone of 10 planned leads spread over 10 of 34 orders
 * (10,000 leads), among a production-shaped population of other leads and lists already holding numbers. Timed end to end over HTTP,
 * once per repetition with fresh numbers; after each add, a check that no lead of those numbers is left planned.
 */

const LEADS = Number(process.env.BENCH_DNC_LEADS ?? 100_000);
const REPETITIONS = Number(process.env.BENCH_DNC_ADD_REPETITIONS ?? 5);
const NUMBERS = 1_000;
const LEADS_PER_NUMBER = 10;
/** Numbers already on the lists before the adds: global and the client's. */
const GLOBAL = Number(process.env.BENCH_DNC_GLOBAL ?? 1_000_000);
const CLIENT = Number(process.env.BENCH_DNC_CLIENT ?? 100_000);
/** Where the sequence of numbers starts for the numbers added (the lists take 0 .. GLOBAL + CLIENT - 1); each repetition 2,000 on. */
const ADDED_FROM = 4_000_000;

interface Repetition {
  ms: number;
  /** HTTP status of the add (200; a 503 when it ran past the statement timeout). */
  status: number;
  count: number;
  leads: number;
  plannedBefore: number;
  leftPlanned: number;
}

export async function dncAddBench(): Promise<BenchSection> {
  const cluster = await startBenchCluster();
  const db = await createBenchDatabase(cluster);
  const machine = await describeMachine(db.url);
  const pool = new Pool({ connectionString: db.url, max: 2 });
  let app: ChildServer<AppReady> | undefined;
  const reps: Repetition[] = [];
  let warmUp: Repetition | undefined;
  try {
    const pop = await createPopulation(pool, [LEADS]);
    const client = await assignBenchClient(pool, pop);
    await grow(pool, pop, 0, LEADS, false);
    const orders = [...pop.zipf, pop.paused, pop.ends, ...pop.tiny];
    const batches = Array.from({ length: REPETITIONS + 1 }, (_, r) => validDncPhones(ADDED_FROM + r * 2 * NUMBERS, NUMBERS));
    for (const phones of batches.slice(1)) await insertMatchingLeads(pool, phones, orders);
    await loadDncEntries(pool, { scope: 'global' }, 0, GLOBAL);
    await loadDncEntries(pool, { scope: 'client', clientId: client.id }, GLOBAL, GLOBAL + CLIENT);
    await settle(db.url, pool);
    await checkpoint(pool);
    app = await startChild<AppReady>('app-server.js', {
      BENCH_APP_DATABASE_URL: db.url,
      BENCH_APP_ENV: JSON.stringify({ WORKERS: '0', API_KEY_CACHE_TTL_MS: '5000' }),
    });
    // The first batch matches no lead: JIT, pools and caches warm.
    warmUp = await addAndCheck(app.ready, pool, batches[0]);
    for (const phones of batches.slice(1)) reps.push(await addAndCheck(app.ready, pool, phones));
  } finally {
    await app?.stop();
    await pool.end();
    await db.drop();
    await cluster.stop();
  }
  machine.loadEnd = os.loadavg()[0];
  return {
    bench: 'dnc-add',
    machine,
    markdown: markdown(reps, warmUp),
    data: { leads: LEADS, numbers: NUMBERS, leadsPerNumber: LEADS_PER_NUMBER, global: GLOBAL, client: CLIENT, warmUp, repetitions: reps },
  };
}

/** LEADS_PER_NUMBER planned leads of each phone, each in another order, created over the past month, set-based. */
async function insertMatchingLeads(pool: Pool, phones: string[], orders: number[]): Promise<void> {
  await pool.query(
    `INSERT INTO lead (order_id, phone, lead_type, status_id, utc_offset, source, planning_call_at, created_at, updated_at)
     SELECT ($2::int[])[1 + (k * 7 + j * 3) % cardinality($2::int[])], p.phone, 'straight', 1, 3, 'organic',
            now() + make_interval(mins => (abs(hashint4extended(k * 16 + j, 21)) % 2880)::int), c.at, c.at
     FROM unnest($1::text[]) WITH ORDINALITY AS p(phone, n)
     CROSS JOIN LATERAL (SELECT n::int AS k) kk
     CROSS JOIN generate_series(1, ${LEADS_PER_NUMBER}) AS j
     CROSS JOIN LATERAL (SELECT now() - make_interval(mins => (abs(hashint4extended(k * 16 + j, 22)) % 43200)::int) AS at) c
     ORDER BY c.at`,
    [phones, orders],
  );
}

async function addAndCheck(app: AppReady, pool: Pool, phones: string[]): Promise<Repetition> {
  const count = async (sql: string) => Number((await pool.query(sql, [phones])).rows[0].n);
  const leads = await count(`SELECT count(*) AS n FROM lead WHERE phone = ANY($1)`);
  const plannedBefore = await count(`SELECT count(*) AS n FROM lead WHERE phone = ANY($1) AND planning_call_at IS NOT NULL`);
  const started = performance.now();
  const res = await fetch(`${app.url}/v2/dnc/add/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': app.apiKey! },
    body: JSON.stringify({ phones, reason: 'bench' }),
  });
  const body = (await res.json()) as { data: { count?: number } };
  const ms = performance.now() - started;
  if (res.status !== 200) console.warn(`dnc-add: POST /v2/dnc/add/ answered HTTP ${res.status} ${JSON.stringify(body)}`);
  const leftPlanned = await count(`SELECT count(*) AS n FROM lead WHERE phone = ANY($1) AND planning_call_at IS NOT NULL`);
  return { ms: Math.round(ms), status: res.status, count: body.data.count ?? 0, leads, plannedBefore, leftPlanned };
}

function markdown(reps: Repetition[], warmUp: Repetition | undefined): string {
  const ms = reps.map((r) => r.ms).sort((a, b) => a - b);
  const lines = [
    `${LEADS} other leads of 34 interleaved orders; ${GLOBAL} numbers on the global list and ${CLIENT} on a client's before the adds. ` +
      `Each repetition adds ${NUMBERS} fresh numbers to the global list, the phones of ${NUMBERS * LEADS_PER_NUMBER} planned leads ` +
      `(${LEADS_PER_NUMBER} per number, each in another order); one request, timed from send to the parsed answer. ` +
      `Warm-up first: ${NUMBERS} numbers of no lead, ${warmUp?.ms ?? '?'} ms.`,
    '',
    mdRow(['Repetition', 'ms', 'HTTP status', 'count', 'leads of the numbers', 'planned before', 'left planned after']),
    mdRow(['---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...reps.map((r, i) => mdRow([i + 1, r.ms, r.status, r.count, r.leads, r.plannedBefore, r.leftPlanned])),
    '',
    `Median ${ms[Math.floor(ms.length / 2)]} ms, max ${ms[ms.length - 1]} ms (goal: under 1,000 ms); ` +
      `leads left planned after an add: ${reps.reduce((n, r) => n + r.leftPlanned, 0)} in all (must be 0).`,
  ];
  return lines.join('\n');
}
