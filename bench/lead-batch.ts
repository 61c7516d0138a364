import type autocannon from 'autocannon';
import os from 'node:os';
import { Pool } from 'pg';
import { benchLeads } from './support/bench-leads';
import { startChild } from './support/child';
import { createBenchDatabase, describeMachine, startBenchCluster } from './support/cluster';
import { LoadTarget, MeasuredLoad, mdRow, measuredLoad } from './support/measured-load';
import { createPopulation, grow } from './support/realistic-data';
import { BenchSection } from './support/report';

/**
 * Leads per second through `POST /v2/lead/create-batch/` (1,000 a request) against single creates, both at 50 connections, on bench-leads
 * bodies; a batch counts the leads committed during its load over a window three times longer (50 batches turn over slowly). Goal: 5x.
 * The table holds EXISTING analysed leads first, so the plans cached per connection are made for a grown table. BENCH_SECONDS per load.
 */

const BATCH = 1000;
/** Leads already in the table (realistic-data.ts), statistics taken: a service in use, not an empty table whose plans were made small. */
const EXISTING = Number(process.env.BENCH_BATCH_EXISTING ?? 200_000);

interface Ready {
  url: string;
  apiKey: string;
}

export async function leadBatchBench(): Promise<BenchSection> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const cluster = await startBenchCluster();
  const db = await createBenchDatabase(cluster);
  const machine = await describeMachine(db.url);
  const pool = new Pool({ connectionString: db.url, max: 2 });
  const app = await startChild<Ready>('app-server.js', {
    BENCH_APP_DATABASE_URL: db.url,
    BENCH_APP_ENV: JSON.stringify({ WORKERS: '0', API_KEY_CACHE_TTL_MS: '5000' }),
  });
  const rows: Record<string, MeasuredLoad & { leadsPerSecond: number }> = {};
  try {
    await app.call('seed');
    await grow(pool, await createPopulation(pool, [EXISTING]), 0, EXISTING, false);
    await pool.query(`VACUUM ANALYZE`);
    const [order] = (await pool.query(`SELECT id, code FROM call_order ORDER BY id LIMIT 1`)).rows as { id: number; code: string }[];
    const target: LoadTarget = { pid: app.pid, cluster, databaseUrl: db.url };
    const { lead } = benchLeads(order);
    const key = { 'x-api-key': app.ready.apiKey, 'content-type': 'application/json' };
    const post = (path: string, body: () => string, extra: Partial<autocannon.Options> = {}): autocannon.Options => ({
      url: `${app.ready.url}${path}`,
      requests: [{ method: 'POST', setupRequest: (req: autocannon.Request) => ({ ...req, headers: key, body: body() }) }],
      ...extra,
    });
    let failedItems = 0;
    const batch = (extra: Partial<autocannon.Options>): autocannon.Options => ({
      url: `${app.ready.url}/v2/lead/create-batch/`,
      // A batch waits behind up to 49 others: far longer than autocannon's default 10 s timeout.
      timeout: 300,
      requests: [
        {
          method: 'POST',
          setupRequest: (req: autocannon.Request) => ({ ...req, headers: key, body: JSON.stringify({ leads: Array.from({ length: BATCH }, lead) }) }),
          onResponse: (status: number, body: string) => {
            if (status === 200) failedItems += (JSON.parse(body) as { data: { failed: number } }).data.failed;
          },
        },
      ],
      ...extra,
    });
    const single = (extra: Partial<autocannon.Options> = {}) => post('/v2/lead/create/', () => JSON.stringify(lead()), extra);

    await measuredLoad('warm-up', { ...single(), duration: 3 }, target);
    await measuredLoad('warm-up', { ...batch({ duration: 3, connections: 4 }) }, target);
    const one = await measuredLoad('POST /v2/lead/create/ (1 lead)', single({ duration: seconds }), target);
    rows.single = { ...one, leadsPerSecond: one.requestsPerSecond };
    failedItems = 0;
    // Leads committed during the load, read from the table: 50 batches of 1,000 in flight take
    // seconds each, so the answered requests alone would undercount a short window.
    const count = async () => Number((await pool.query(`SELECT count(*) AS n FROM lead`)).rows[0].n);
    const before = await count();
    const started = performance.now();
    const many = await measuredLoad(`POST /v2/lead/create-batch/ (${BATCH} leads)`, batch({ duration: seconds * 3 }), target);
    const committed = await count();
    const elapsed = (performance.now() - started) / 1000;
    rows.batch = { ...many, leadsPerSecond: Math.round((committed - before) / elapsed) };
    if (failedItems) console.warn(`lead-batch: ${failedItems} batch items failed`);
  } finally {
    await app.stop();
    await pool.end();
    await db.drop();
    await cluster.stop();
  }
  machine.loadEnd = os.loadavg()[0];
  const ratio = rows.batch.leadsPerSecond / rows.single.leadsPerSecond;
  const lines = [
    `50 connections; single creates for ${seconds} s, batches of ${BATCH} for ${seconds * 3} s (leads/s: leads committed during the load, ` +
      'counted in the table). CPU ms per answered request: the server process and the whole PostgreSQL cluster (for batches it includes ' +
      'the work of batches still in flight at the end).',
    '',
    mdRow(['Path', 'req/s', 'leads/s', 'p50 ms', 'p99 ms', 'errors / non-2xx', 'server CPU ms', 'PostgreSQL CPU ms', 'leads/s vs single']),
    mdRow(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...[rows.single, rows.batch].map((r) =>
      mdRow([
        r.name,
        r.requestsPerSecond,
        r.leadsPerSecond,
        r.p50Ms,
        r.p99Ms,
        `${r.errors} / ${r.non2xx}`,
        r.serverCpuMs ?? '',
        r.postgresCpuMs ?? '',
        `${(r.leadsPerSecond / rows.single.leadsPerSecond).toFixed(2)}x`,
      ]),
    ),
    '',
    `Batch / single: **${ratio.toFixed(1)}x** the leads per second (goal: at least 5x).`,
  ];
  return { bench: 'lead-batch', machine, markdown: lines.join('\n'), data: { rows, ratio } };
}
