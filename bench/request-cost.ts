import type autocannon from 'autocannon';
import os from 'node:os';
import { Pool } from 'pg';
import { benchLeads } from './support/bench-leads';
import { startChild } from './support/child';
import { BenchCluster, createBenchDatabase, describeMachine, startBenchCluster } from './support/cluster';
import { clusterCpuMs, processCpuMs } from './support/proc-cpu';
import { getRandomIds, idRange } from './support/load';
import { LoadTarget, MeasuredLoad, mdRow, measuredLoad } from './support/measured-load';
import { BenchSection } from './support/report';

/**
 * CPU per request of the hot paths, which on a shared machine measures the code far better than throughput does. Each path runs ROUNDS
 * x SECONDS at 16 connections, interleaved with the bare baselines; the least-CPU round counts (server and PostgreSQL), and the ratio is
 * the throughput the two would have on cores of their own. Without workers; queued jobs are then drained alone (leads/s, CPU per lead).
 */

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_COST_SECONDS ?? 4);
const CONNECTIONS = 16;
const DRAIN_SECONDS = Number(process.env.BENCH_DRAIN_SECONDS ?? 120);

interface Ready {
  url: string;
  apiKey?: string;
}

interface Cost {
  name: string;
  serverCpuMs: number;
  postgresCpuMs: number;
  totalCpuMs: number;
  requestsPerSecond: number;
  rounds: { serverCpuMs: number | null; postgresCpuMs: number | null; requestsPerSecond: number; errors: number; non2xx: number }[];
}

export async function requestCostBench(): Promise<BenchSection> {
  const cluster = await startBenchCluster();
  const db = await createBenchDatabase(cluster);
  const machine = await describeMachine(db.url);
  const pool = new Pool({ connectionString: db.url, max: 2 });
  const app = await startChild<Ready>('app-server.js', {
    BENCH_APP_DATABASE_URL: db.url,
    BENCH_APP_ENV: JSON.stringify({ WORKERS: '0', API_KEY_CACHE_TTL_MS: '5000' }),
  });
  const bare = await startChild<Ready>('bare-server.js', { BENCH_BARE_DATABASE_URL: db.url });
  const costs: Cost[] = [];
  let drain: Drain | null;
  try {
    await app.call('seed');
    const [order] = (await pool.query(`SELECT id, code FROM call_order ORDER BY id LIMIT 1`)).rows as { id: number; code: string }[];
    const appTarget: LoadTarget = { pid: app.pid, cluster, databaseUrl: db.url };
    const bareTarget: LoadTarget = { pid: bare.pid, cluster, databaseUrl: db.url };
    const { lead } = benchLeads(order);
    const body = () => JSON.stringify(lead());
    const post = (base: string, p: string, headers: Record<string, string> = {}): autocannon.Options => ({
      url: `${base}${p}`,
      requests: [
        { method: 'POST', setupRequest: (req: autocannon.Request) => ({ ...req, headers: { 'content-type': 'application/json', ...headers }, body: body() }) },
      ],
    });
    const key = { 'x-api-key': app.ready.apiKey! };

    const creates: [string, autocannon.Options, LoadTarget][] = [
      ['bare: single-row INSERT', post(bare.ready.url, '/insert'), bareTarget],
      ["bare: the service's create SQL", post(bare.ready.url, '/lead'), bareTarget],
      ['POST /v2/lead/create/', post(app.ready.url, '/v2/lead/create/', key), appTarget],
      ['POST /v2/lead/create-async/ (accept only)', post(app.ready.url, '/v2/lead/create-async/', key), appTarget],
    ];
    for (const [, options, target] of creates) await measuredLoad('warm-up', { ...options, duration: 2, connections: CONNECTIONS }, target);
    const items = await idRange(pool, 'bare_item');
    const leads = await idRange(pool, 'lead');
    const reads: [string, autocannon.Options, LoadTarget][] = [
      ['bare: SELECT by id', getRandomIds(bare.ready.url, '/item/', items), bareTarget],
      ["bare: the service's detail SQL", getRandomIds(bare.ready.url, '/lead/', leads), bareTarget],
      ['GET /v2/lead/detail/{id}/', getRandomIds(app.ready.url, '/v2/lead/detail/', leads, key), appTarget],
    ];
    for (const [, options, target] of reads) await measuredLoad('warm-up', { ...options, duration: 2, connections: CONNECTIONS }, target);

    const runs = new Map<string, MeasuredLoad[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, options, target] of [...creates, ...reads]) {
        const run = await measuredLoad(name, { ...options, duration: SECONDS, connections: CONNECTIONS }, target);
        runs.set(name, [...(runs.get(name) ?? []), run]);
      }
    }
    drain = await measureDrain(db.url, pool, cluster);
    for (const [name, measured] of runs) {
      const total = (m: MeasuredLoad) => (m.serverCpuMs ?? Infinity) + (m.postgresCpuMs ?? 0);
      const best = [...measured].sort((a, b) => total(a) - total(b))[0];
      costs.push({
        name,
        serverCpuMs: best.serverCpuMs ?? NaN,
        postgresCpuMs: best.postgresCpuMs ?? NaN,
        totalCpuMs: Math.round(total(best) * 1000) / 1000,
        requestsPerSecond: best.requestsPerSecond,
        rounds: measured.map((m) => ({
          serverCpuMs: m.serverCpuMs,
          postgresCpuMs: m.postgresCpuMs,
          requestsPerSecond: m.requestsPerSecond,
          errors: m.errors,
          non2xx: m.non2xx,
        })),
      });
    }
  } finally {
    await app.stop();
    await bare.stop();
    await pool.end();
    await db.drop();
    await cluster.stop();
  }
  machine.loadEnd = os.loadavg()[0];
  return {
    bench: 'request-cost',
    machine,
    markdown: markdown(costs, drain),
    data: { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, costs, drain },
  };
}

interface Drain {
  leads: number;
  failed: number;
  seconds: number;
  perSecond: number;
  serverCpuMs: number;
  postgresCpuMs: number;
}

/**
 * The jobs the accept rounds queued, drained by an instance of the service with WORKERS=2 started
 * for it (nothing else running): leads per second, and CPU per lead of that process and of
 * PostgreSQL. At most DRAIN_SECONDS.
 */
async function measureDrain(url: string, pool: Pool, cluster: BenchCluster): Promise<Drain> {
  const count = async (sql: string) => Number((await pool.query(sql)).rows[0].n);
  const before = await count(`SELECT count(*) AS n FROM lead`);
  const pgBefore = cluster.postmasterPid ? clusterCpuMs(cluster.postmasterPid) : null;
  const started = Date.now();
  const worker = await startChild<Ready>('app-server.js', {
    BENCH_APP_DATABASE_URL: url,
    BENCH_APP_ENV: JSON.stringify({ WORKERS: '2', API_KEY_CACHE_TTL_MS: '5000' }),
  });
  const cpuBefore = processCpuMs(worker.pid);
  try {
    while ((await count(`SELECT count(*) AS n FROM lead_async_job WHERE state = 'queued'`)) > 0 && Date.now() - started < DRAIN_SECONDS * 1000) {
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (Date.now() - started) / 1000;
    const leads = (await count(`SELECT count(*) AS n FROM lead`)) - before;
    const cpu = processCpuMs(worker.pid) - cpuBefore;
    const pg = pgBefore !== null ? clusterCpuMs(cluster.postmasterPid!) - pgBefore : NaN;
    const failed = await count(`SELECT count(*) AS n FROM lead_async_job WHERE state = 'failed'`);
    const per = (ms: number) => (leads ? Math.round((ms / leads) * 1000) / 1000 : NaN);
    return { leads, failed, seconds: Math.round(seconds * 10) / 10, perSecond: Math.round(leads / seconds), serverCpuMs: per(cpu), postgresCpuMs: per(pg) };
  } finally {
    await worker.stop();
  }
}

function markdown(costs: Cost[], drain: Drain | null): string {
  const by = new Map(costs.map((c) => [c.name, c]));
  const ratio = (base: string, name: string) => {
    const b = by.get(base);
    const x = by.get(name);
    return b && x ? `${(b.totalCpuMs / x.totalCpuMs).toFixed(2)}x` : '';
  };
  const versus: Record<string, [string, string]> = {
    "bare: the service's create SQL": ['bare: single-row INSERT', ''],
    'POST /v2/lead/create/': ['bare: single-row INSERT', "bare: the service's create SQL"],
    'POST /v2/lead/create-async/ (accept only)': ['bare: single-row INSERT', "bare: the service's create SQL"],
    "bare: the service's detail SQL": ['bare: SELECT by id', ''],
    'GET /v2/lead/detail/{id}/': ['bare: SELECT by id', "bare: the service's detail SQL"],
  };
  const lines = [
    `${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per path, interleaved; each row is the round with the least CPU per request. ` +
      'Ratios: CPU per request of the baseline over the service (server + PostgreSQL), i.e. the throughput ratio on cores of their own.',
    '',
    mdRow([
      'Path',
      'server CPU ms',
      'PostgreSQL CPU ms',
      'total CPU ms',
      'req/s (that round)',
      'vs bare single-row (CPU)',
      "vs bare, service's SQL (CPU)",
      'errors / non-2xx (all rounds)',
    ]),
    mdRow(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const c of costs) {
    const [single, own] = versus[c.name] ?? ['', ''];
    const errors = c.rounds.reduce((n, r) => n + r.errors, 0);
    const non2xx = c.rounds.reduce((n, r) => n + r.non2xx, 0);
    lines.push(
      mdRow([
        c.name,
        c.serverCpuMs,
        c.postgresCpuMs,
        c.totalCpuMs,
        c.requestsPerSecond,
        single ? ratio(single, c.name) : '',
        own ? ratio(own, c.name) : '',
        `${errors} / ${non2xx}`,
      ]),
    );
  }
  if (drain) {
    const create = by.get('POST /v2/lead/create/');
    lines.push(
      '',
      `Drain: the ${drain.leads} leads the accepts queued (${drain.failed} failed) created by a fresh instance with WORKERS=2 in ${drain.seconds} s ` +
        `(start-up included): ${drain.perSecond} leads/s; CPU per lead ${drain.serverCpuMs} ms in that process (start-up included) and ${drain.postgresCpuMs} ms in PostgreSQL` +
        (create ? ` (${(create.totalCpuMs / (drain.serverCpuMs + drain.postgresCpuMs)).toFixed(2)}x the CPU-bound rate of the sync create).` : '.'),
    );
  }
  return lines.join('\n');
}
