import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { startBenchDatabase } from './support/bench-app';

/**
 * Do queued async lead creates starve sync requests of database connections? Beside a steady sync load: a burst (WORKERS=2, BACKLOG
 * creates from CLIENTS clients), then a backlog accepted with WORKERS=0 and drained after a restart with WORKERS=2. Reports sync answers
 * by status (503s are the figure), latency, drain time, job states; settings from the environment (see the end of this file).
 */

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const DRAIN_WITHIN_MS = 300_000;

export interface JobBacklogOptions {
  databaseUrl: string;
  backlog?: number;
  clients?: number;
  syncCreatesPerS?: number;
  syncReadsPerS?: number;
  serviceEnv?: Record<string, string>;
  log?: (line: string) => void;
}

export interface PhaseFigures {
  phase: 'burst' | 'backlog';
  accepted: number;
  acceptAnswers: Record<string, number>;
  acceptSeconds: number;
  drainSeconds: number;
  jobStates: Record<string, number>;
  syncAnswers: Record<string, number>;
  sync503: number;
  syncLatencyMs: { p50: number; p95: number; max: number };
}

class Tally {
  readonly counts: Record<string, number> = {};
  add(label: string | number): void {
    this.counts[String(label)] = (this.counts[String(label)] ?? 0) + 1;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (v: number[], p: number) => (v.length ? [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor((p / 100) * v.length))] : 0);
const round = (n: number) => Math.round(n * 10) / 10;

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** The built service on a free port; resolves once /health/ready answers 200. */
async function startService(env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const proc: ChildProcess = spawn(path.join(REPO_ROOT, 'node_modules', '.bin', 'node'), ['dist/src/main.js'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', PORT: String(port), LOG_FORMAT: 'text', ACCESS_LOG: 'false', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = once(proc, 'exit');
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the service exited with ${proc.exitCode} before it was ready`);
    const ready = await fetch(`${url}/health/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error('the service was not ready within 120 s');
    await sleep(100);
  }
  return {
    url,
    stop: async () => {
      if (proc.exitCode !== null) return;
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

async function eachLimited<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}

/** Open loop: a slow answer does not delay the next request, as with independent clients. */
async function atFixedRate(perSecond: number, stop: () => boolean, fn: (i: number) => Promise<void>): Promise<void> {
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; !stop(); i++) {
    inFlight.push(fn(i).catch(() => undefined));
    const wait = start + (i + 1) * (1000 / perSecond) - performance.now();
    if (wait > 0) await sleep(wait);
  }
  await Promise.all(inFlight);
}

export async function jobBacklog(o: JobBacklogOptions): Promise<PhaseFigures[]> {
  const backlog = o.backlog ?? 2000;
  const clients = o.clients ?? 16;
  const log = o.log ?? (() => undefined);
  const apiKey = randomBytes(32).toString('base64url');
  const base = { DATABASE_URL: o.databaseUrl, API_KEY: apiKey, ...o.serviceEnv };
  const db = new Client({ connectionString: o.databaseUrl });
  await db.connect();
  let phone = 0;
  const nextPhone = () => `+7916${String(3_000_000 + ++phone).padStart(7, '0')}`;
  try {
    // The demo dataset (orders, leads to read) comes with the first start.
    const seeding = await startService({ ...base, WORKERS: '0', SEED_DEMO: 'true' });
    await seeding.stop();
    const order: { id: number; code: string } = (await db.query(`SELECT id, code FROM call_order ORDER BY id LIMIT 1`)).rows[0];
    const leadIds: number[] = (await db.query(`SELECT id FROM lead ORDER BY id LIMIT 200`)).rows.map((r: { id: number }) => r.id);
    const body = () => ({ leadType: 'straight', phone: nextPhone(), orderId: order.id, orderCode: order.code, name: 'Bench' });
    const call = (url: string, method: string, p: string, b?: unknown) =>
      fetch(`${url}${p}`, {
        method,
        headers: { 'X-Api-Key': apiKey, 'Content-Type': 'application/json' },
        body: b === undefined ? undefined : JSON.stringify(b),
      });

    const accept = async (url: string, tally: Tally, ids: string[]) => {
      await eachLimited(Array.from({ length: backlog }, body), clients, async (b) => {
        const r = await call(url, 'POST', '/v2/lead/create-async/', b).catch(() => null);
        tally.add(r?.status ?? 'connection error');
        await r?.arrayBuffer();
        const id = r?.headers.get('x-job-id');
        if (r?.status === 200 && id) ids.push(id);
      });
    };
    const syncLoad = (url: string, until: () => boolean, tally: Tally, latencies: number[]) => {
      const one = async (method: string, p: string, b?: unknown) => {
        const t0 = performance.now();
        const r = await call(url, method, p, b).catch(() => null);
        await r?.arrayBuffer();
        latencies.push(performance.now() - t0);
        tally.add(r?.status ?? 'connection error');
      };
      return Promise.all([
        atFixedRate(o.syncCreatesPerS ?? 4, until, () => one('POST', '/v2/lead/create/', body())),
        atFixedRate(o.syncReadsPerS ?? 8, until, (i) => one('GET', `/v2/lead/detail/${leadIds[i % leadIds.length]}/`)),
      ]);
    };
    const drain = async (ids: string[], since: number): Promise<{ states: Record<string, number>; seconds: number }> => {
      for (;;) {
        const rows: { state: string; n: number }[] = (
          await db.query(`SELECT state, count(*)::int AS n FROM lead_async_job WHERE id = ANY($1::uuid[]) GROUP BY state`, [ids])
        ).rows;
        const states = Object.fromEntries(rows.map((r) => [r.state, r.n]));
        if (!states.queued || Date.now() - since > DRAIN_WITHIN_MS) return { states, seconds: round((Date.now() - since) / 1000) };
        await sleep(500);
      }
    };
    const figures = (
      phase: PhaseFigures['phase'],
      ids: string[],
      acceptTally: Tally,
      acceptSeconds: number,
      d: { states: Record<string, number>; seconds: number },
      sync: Tally,
      lat: number[],
    ): PhaseFigures => ({
      phase,
      accepted: ids.length,
      acceptAnswers: acceptTally.counts,
      acceptSeconds,
      drainSeconds: d.seconds,
      jobStates: d.states,
      syncAnswers: sync.counts,
      sync503: sync.counts['503'] ?? 0,
      syncLatencyMs: { p50: round(percentile(lat, 50)), p95: round(percentile(lat, 95)), max: round(Math.max(0, ...lat)) },
    });
    const out: PhaseFigures[] = [];

    // Burst: accepted while the workers run.
    {
      const svc = await startService({ ...base, WORKERS: '2' });
      const ids: string[] = [];
      const acceptTally = new Tally();
      const sync = new Tally();
      const lat: number[] = [];
      let done = false;
      const load = syncLoad(svc.url, () => done, sync, lat);
      const t0 = Date.now();
      await accept(svc.url, acceptTally, ids);
      const acceptSeconds = round((Date.now() - t0) / 1000);
      const d = await drain(ids, t0);
      done = true;
      await load;
      await svc.stop();
      out.push(figures('burst', ids, acceptTally, acceptSeconds, d, sync, lat));
      log(JSON.stringify(out[out.length - 1]));
    }

    // Backlog: accepted with no worker, drained at full speed by a restarted service.
    {
      const api = await startService({ ...base, WORKERS: '0' });
      const ids: string[] = [];
      const acceptTally = new Tally();
      const t0 = Date.now();
      await accept(api.url, acceptTally, ids);
      const acceptSeconds = round((Date.now() - t0) / 1000);
      await api.stop();
      const svc = await startService({ ...base, WORKERS: '2' });
      const sync = new Tally();
      const lat: number[] = [];
      let done = false;
      const load = syncLoad(svc.url, () => done, sync, lat);
      const d = await drain(ids, Date.now());
      done = true;
      await load;
      await svc.stop();
      out.push(figures('backlog', ids, acceptTally, acceptSeconds, d, sync, lat));
      log(JSON.stringify(out[out.length - 1]));
    }
    return out;
  } finally {
    await db.end();
  }
}

async function main(): Promise<void> {
  const database = await startBenchDatabase();
  try {
    const phases = await jobBacklog({
      databaseUrl: database.url,
      backlog: Number(process.env.BACKLOG ?? 2000),
      clients: Number(process.env.CLIENTS ?? 16),
      syncCreatesPerS: Number(process.env.SYNC_CREATES_PER_S ?? 4),
      syncReadsPerS: Number(process.env.SYNC_READS_PER_S ?? 8),
      serviceEnv: process.env.SERVICE_ENV ? (JSON.parse(process.env.SERVICE_ENV) as Record<string, string>) : {},
      log: (line) => console.log(line),
    });
    for (const p of phases) {
      console.log(
        `${p.phase}: ${p.accepted} accepted in ${p.acceptSeconds} s ${JSON.stringify(p.acceptAnswers)}; jobs ${JSON.stringify(p.jobStates)} after ${p.drainSeconds} s; ` +
          `sync ${JSON.stringify(p.syncAnswers)} (503: ${p.sync503}), p50 ${p.syncLatencyMs.p50} ms, p95 ${p.syncLatencyMs.p95} ms, max ${p.syncLatencyMs.max} ms`,
      );
    }
  } finally {
    await database.close();
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err: Error) => {
      console.error(err.stack ?? err.message);
      process.exit(1);
    },
  );
}
