import type autocannon from 'autocannon';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { Pool } from 'pg';
import { benchLeads } from './support/bench-leads';
import { startChild } from './support/child';
import { clusterCpuMs, processCpuMs } from './support/proc-cpu';
import { createBenchDatabase, describeMachine, MachineInfo, machineLine, startBenchCluster } from './support/cluster';
import { LoadTarget, MeasuredLoad, mdRow, measuredLoad, SECONDS } from './support/measured-load';
import { BenchSection } from './support/report';

/** Rounds of without-then-with loads (BENCH_ROUNDS, default 3). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Batches of 1,000 leads for the cost per delivery. */
const COST_BATCHES = 20;

/**
 * What a subscribed webhook costs the sync lead create, and how fast deliveries go out (one instance with WORKERS=2): rounds of creates
 * paused vs on (local 204 receiver), then the dispatcher alone on 20,000 leads' deliveries, then a mass redelivery through the workers.
 * Goals: create with a webhook at least 0.9x without; deliveries per second at least the create rate. BENCH_SECONDS per load.
 */

interface Ready {
  url: string;
  apiKey: string;
}

async function startReceiver(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    count: () => count,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/**
 * Where the dispatcher and the delivery workers run: `apart`, as docker-compose.yml deploys (an API
 * instance with WORKERS=0 and a workers-only instance), or `together` in the one process that
 * `npm start` runs (WORKERS=2), where they share the API's event loop.
 */
type Layout = 'apart' | 'together';

export async function webhooksBench(): Promise<BenchSection> {
  const layouts = (process.env.BENCH_WEBHOOK_LAYOUTS ?? 'apart,together').split(',') as Layout[];
  const parts: { layout: Layout; markdown: string; data: object; machine: MachineInfo }[] = [];
  for (const layout of layouts) parts.push({ layout, ...(await measureLayout(layout)) });
  const title: Record<Layout, string> = {
    apart: 'API instance (WORKERS=0) and a workers-only instance, as docker-compose.yml deploys',
    together: 'one process with WORKERS=2, as `npm start` runs',
  };
  return {
    bench: 'webhooks',
    machine: parts[0].machine,
    markdown: parts.map((p) => `### ${title[p.layout]}\n\nMachine: ${machineLine(p.machine)}.\n\n${p.markdown}`).join('\n\n'),
    data: Object.fromEntries(parts.map((p) => [p.layout, p.data])),
  };
}

async function measureLayout(layout: Layout): Promise<{ machine: MachineInfo; markdown: string; data: object }> {
  const cluster = await startBenchCluster();
  const db = await createBenchDatabase(cluster);
  const machine = await describeMachine(db.url);
  const pool = new Pool({ connectionString: db.url, max: 2 });
  const receiver = await startReceiver();
  const env = { WORKERS: '2', API_KEY_CACHE_TTL_MS: '5000', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
  const childEnv = (e: object) => ({ BENCH_APP_DATABASE_URL: db.url, BENCH_APP_ENV: JSON.stringify(e) });
  const app = await startChild<Ready>('app-server.js', childEnv(layout === 'apart' ? { ...env, WORKERS: '0' } : env));
  const workers = layout === 'apart' ? await startChild<Ready>('app-server.js', childEnv({ ...env, WORKERS_ONLY: 'true' })) : app;
  /** CPU of the process that dispatches and delivers, when it is not the API's. */
  const workerCpu = () => (layout === 'apart' ? processCpuMs(workers.pid) : 0);
  const workerCpuPerCreate: number[] = [];
  const without: MeasuredLoad[] = [];
  const withHook: MeasuredLoad[] = [];
  const lag: { pending: number; seconds: number }[] = [];
  let drain: { deliveries: number; seconds: number; perSecond: number };
  let cost: { deliveries: number; seconds: number; perSecond: number; serverMs: number; postgresMs: number; receiverMs: number };
  try {
    await app.call('seed');
    const [order] = (await pool.query(`SELECT id, code FROM call_order ORDER BY id LIMIT 1`)).rows as { id: number; code: string }[];
    const target: LoadTarget = { pid: app.pid, cluster, databaseUrl: db.url };
    const headers = { 'x-api-key': app.ready.apiKey, 'content-type': 'application/json' };
    const { lead } = benchLeads(order, { duplicates: false });
    const create = (extra: Partial<autocannon.Options> = {}): autocannon.Options => ({
      url: `${app.ready.url}/v2/lead/create/`,
      requests: [
        {
          method: 'POST',
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            headers: { ...headers },
            body: JSON.stringify(lead()),
          }),
        },
      ],
      ...extra,
    });
    const api = async (path: string, body: unknown) => {
      const res = await fetch(`${app.ready.url}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': app.ready.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).catch((err: Error) => {
        throw new Error(`${path}: ${err.message} (${String((err as { cause?: unknown }).cause)})`);
      });
      const json = (await res.json()) as { success: boolean; data: { id?: number } };
      if (!json.success) throw new Error(`${path}: ${JSON.stringify(json)}`);
      return json.data;
    };
    const delivered = async () =>
      (
        await pool.query(`SELECT count(*) FILTER (WHERE status = 'delivered')::int AS n, count(*)::int AS total FROM webhook_delivery WHERE webhook_id = $1`, [
          webhookId,
        ])
      ).rows[0] as { n: number; total: number };
    let webhookId = 0;

    await measuredLoad('warm-up', create({ duration: 5 }), target);
    // Rounds of "without" then "with", so a drift of the machine (neighbours, caches, table growth)
    // falls on both sides alike. Paused, the webhook gets nothing of the "without" loads.
    webhookId = (await api('/v2/webhook/create/', { url: receiver.url, events: ['lead.created'], orderIds: [order.id], isActive: false })).id!;
    for (let round = 1; round <= ROUNDS; round++) {
      without.push(await measuredLoad(`POST /v2/lead/create/ without a webhook (round ${round})`, create(), target));
      await api(`/v2/webhook/update/${webhookId}/`, { isActive: true });
      const before = await delivered();
      const w0 = workerCpu();
      const load = await measuredLoad(`POST /v2/lead/create/ with 1 webhook, lead.created (round ${round})`, create(), target);
      workerCpuPerCreate.push(Math.round(((workerCpu() - w0) / load.requests) * 1000) / 1000);
      withHook.push(load);
      const created = load.requests - load.errors - load.non2xx;
      const atEnd = await delivered();
      const loadEnd = Date.now();
      const drained = await waitFor(async () => {
        const d = await delivered();
        return d.n - before.n >= created && d.n === d.total;
      }, 120_000);
      lag.push({ pending: created - (atEnd.n - before.n), seconds: Math.round((Date.now() - loadEnd) / 100) / 10 });
      if (!drained) console.warn(`webhooks: deliveries of round ${round} did not all arrive within 120 s`);
      await api(`/v2/webhook/update/${webhookId}/`, { isActive: false });
    }

    // The dispatcher's path alone: COST_BATCHES x 1,000 leads delivered, their deliveries deleted and the cursor put back, so it reads,
    // sends and stores them again with nothing else running: its rate and CPU per delivery (server, PostgreSQL, receiver), idle subtracted.
    const batchOf = (n: number) => ({
      leads: Array.from({ length: n }, lead),
    });
    const cpuNow = () => ({ server: processCpuMs(workers.pid), pg: cluster.postmasterPid ? clusterCpuMs(cluster.postmasterPid) : 0, self: process.cpuUsage() });
    const cpuSince = (t0: ReturnType<typeof cpuNow>) => {
      const self = process.cpuUsage(t0.self);
      return {
        server: processCpuMs(workers.pid) - t0.server,
        pg: (cluster.postmasterPid ? clusterCpuMs(cluster.postmasterPid) : 0) - t0.pg,
        receiver: (self.user + self.system) / 1000,
      };
    };
    await api(`/v2/webhook/update/${webhookId}/`, { isActive: true });
    await new Promise((r) => setTimeout(r, 1000));
    const p0 = Number((await pool.query(`SELECT coalesce(max(position), 0) AS p FROM event`)).rows[0].p);
    const stepStart = new Date();
    const base = (await delivered()).n;
    for (let i = 0; i < COST_BATCHES; i++) await api('/v2/lead/create-batch/', batchOf(1000));
    const n = COST_BATCHES * 1000;
    await waitFor(async () => (await delivered()).n - base >= n, 120_000);
    await new Promise((r) => setTimeout(r, 1000));
    const idle0 = cpuNow();
    await new Promise((r) => setTimeout(r, 2000));
    const idle = cpuSince(idle0);
    const again = await pool.connect();
    try {
      await again.query('BEGIN');
      await again.query(`DELETE FROM webhook_delivery WHERE webhook_id = $1 AND created_at >= $2`, [webhookId, stepStart]);
      await again.query(`UPDATE webhook_dispatch_cursor SET position = $1`, [p0]);
      await again.query('COMMIT');
    } finally {
      again.release();
    }
    const received = receiver.count();
    const t0 = cpuNow();
    const started = Date.now();
    // Waiting on the receiver's count: polling the table would add to PostgreSQL's CPU.
    await waitFor(() => Promise.resolve(receiver.count() - received >= n), 120_000);
    await waitFor(async () => (await delivered()).n - base >= n, 120_000);
    const took = (Date.now() - started) / 1000;
    const used = cpuSince(t0);
    const per = (k: 'server' | 'pg' | 'receiver') => Math.round(((used[k] - (idle[k] * took) / 2) / n) * 1000) / 1000;
    cost = {
      deliveries: n,
      seconds: Math.round(took * 10) / 10,
      perSecond: Math.round(n / took),
      serverMs: per('server'),
      postgresMs: per('pg'),
      receiverMs: per('receiver'),
    };
    await api(`/v2/webhook/update/${webhookId}/`, { isActive: false });

    // Throughput: every delivery made due at once, then timed until all are delivered again.
    await api(`/v2/webhook/update/${webhookId}/`, { isActive: true });
    const before = receiver.count();
    const start = Date.now();
    await pool.query(`UPDATE webhook_delivery SET status = 'pending', next_attempt_at = now() WHERE webhook_id = $1`, [webhookId]);
    const total = (await delivered()).total;
    const done = await waitFor(async () => (await delivered()).n >= total, 300_000);
    const seconds = (Date.now() - start) / 1000;
    if (!done) console.warn('webhooks: the redelivery did not finish within 300 s');
    drain = { deliveries: receiver.count() - before, seconds: Math.round(seconds * 10) / 10, perSecond: Math.round((receiver.count() - before) / seconds) };
  } finally {
    await app.stop();
    if (workers !== app) await workers.stop();
    await receiver.close();
    await pool.end();
    await db.drop();
    await cluster.stop();
  }
  machine.loadEnd = os.loadavg()[0];
  const sum = (loads: MeasuredLoad[], f: (l: MeasuredLoad) => number | null) => loads.reduce((a, l) => a + (f(l) ?? 0), 0);
  const rate = (loads: MeasuredLoad[]) => sum(loads, (l) => l.requestsPerSecond) / loads.length;
  const cpu = (loads: MeasuredLoad[], f: (l: MeasuredLoad) => number | null) =>
    Math.round((sum(loads, (l) => (f(l) ?? 0) * l.requests) / sum(loads, (l) => l.requests)) * 1000) / 1000;
  const withoutRate = rate(without);
  const ratio = rate(withHook) / withoutRate;
  const perRound = withHook.map((l, i) => l.requestsPerSecond / without[i].requestsPerSecond);
  const loads = without.flatMap((l, i) => [l, withHook[i]]);
  const lines = [
    `${layout === 'apart' ? 'Server CPU: the API instance; the workers-only instance (dispatcher, deliveries) is counted apart, per create of the rounds with the webhook. ' : ''}` +
      `50 connections, ${ROUNDS} rounds of ${SECONDS} s without then ${SECONDS} s with the webhook; receiver: node:http on 127.0.0.1 answering 204 ` +
      '(in the bench process, beside autocannon). CPU ms per request: the server process and the whole PostgreSQL cluster. ' +
      'Lag: deliveries of the round still to go when its load ended, and how long they took.',
    '',
    mdRow(['Load', 'req/s', 'p50 ms', 'p99 ms', 'errors / non-2xx', 'server CPU ms', 'PostgreSQL CPU ms', 'lag']),
    mdRow(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...loads.map((r, i) =>
      mdRow([
        r.name,
        r.requestsPerSecond,
        r.p50Ms,
        r.p99Ms,
        `${r.errors} / ${r.non2xx}`,
        r.serverCpuMs ?? '',
        r.postgresCpuMs ?? '',
        i % 2 ? `${lag[(i - 1) / 2].pending} in ${lag[(i - 1) / 2].seconds} s` : '',
      ]),
    ),
    '',
    `With a webhook / without (mean req/s over the rounds): **${ratio.toFixed(2)}x** (goal: at least 0.9x); per round ` +
      `${perRound.map((r) => `${r.toFixed(2)}x`).join(', ')}. CPU per create without / with: server ${cpu(without, (l) => l.serverCpuMs)} / ` +
      `${cpu(withHook, (l) => l.serverCpuMs)} ms, PostgreSQL ${cpu(without, (l) => l.postgresCpuMs)} / ${cpu(withHook, (l) => l.postgresCpuMs)} ms` +
      `${layout === 'apart' ? `, workers-only instance ${workerCpuPerCreate.join(' / ')} ms per round` : ''}.`,
    '',
    `The dispatcher alone (the deliveries of ${cost.deliveries} leads deleted and the cursor put back): read, sent and stored again in ` +
      `${cost.seconds} s, **${cost.perSecond} deliveries/s**, ${(cost.perSecond / withoutRate).toFixed(2)}x the sync create rate without a webhook ` +
      `(goal: at least 1x). CPU ms per delivery: server ${cost.serverMs}, PostgreSQL ${cost.postgresMs}, receiver ${cost.receiverMs}; ` +
      `per create without a webhook: server ${cpu(without, (l) => l.serverCpuMs)}, PostgreSQL ${cpu(without, (l) => l.postgresCpuMs)}.`,
    '',
    `Retry path: ${drain.deliveries} deliveries made due at once were delivered in ${drain.seconds} s: ` +
      `**${drain.perSecond} deliveries/s** by the delivery workers (claim, send, record), ${(drain.perSecond / withoutRate).toFixed(2)}x the sync create rate without a webhook.`,
  ];
  return { machine, markdown: lines.join('\n'), data: { without, withHook, workerCpuPerCreate, lag, ratio, perRound, cost, drain } };
}
