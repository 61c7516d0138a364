import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { Pool } from 'pg';
import { startAppBuilds } from './support/app-builds';
import { benchLeads } from './support/bench-leads';
import { startChild } from './support/child';
import { startBenchCluster } from './support/cluster';
import { getRandomIds, idRange } from './support/load';
import { forEachBusySample, ProfileNode, readProfile } from './support/profile-summary';
import { LoadTarget, measuredLoad } from './support/measured-load';

/**
 * Where a detail read's server CPU goes, function by function (`node dist/bench/detail-profile.js` after a build): CPU per request of
 * `GET /v2/lead/detail/{id}/` and of the bare SELECT by id (best of BENCH_ROUNDS, 16 connections), then the heaviest functions of each
 * profile. BENCH_BASELINE_DIST=<other dist/>[,...] runs those builds too, interleaved. BENCH_PROFILE_PATH=create loads
 * `POST /v2/lead/create/` instead (the bodies of build-ab's create) and leaves the bare server out.
 */

const SECONDS = Number(process.env.BENCH_COST_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 16;
const CREATE = process.env.BENCH_PROFILE_PATH === 'create';
const PATH = CREATE ? 'create' : 'detail';

/** The load of the profiled path on one build: detail reads of its leads, or creates in its first order. */
async function pathLoad(pool: Pool, ready: Ready): Promise<autocannon.Options> {
  const headers = { 'content-type': 'application/json', 'x-api-key': ready.apiKey! };
  if (!CREATE) return getRandomIds(ready.url, '/v2/lead/detail/', await idRange(pool, 'lead'), headers);
  const [order] = (await pool.query(`SELECT id, code FROM call_order ORDER BY id LIMIT 1`)).rows as { id: number; code: string }[];
  const bodies = benchLeads(order);
  const setupRequest = (req: autocannon.Request) => ({ ...req, headers, body: JSON.stringify(bodies.lead()) });
  return { url: `${ready.url}/v2/lead/create/`, requests: [{ method: 'POST', setupRequest }] };
}

interface Ready {
  url: string;
  apiKey?: string;
}

async function topFunctions(file: string, n = 45): Promise<string> {
  const p = await readProfile(file);
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const parent = new Map<number, number>();
  for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const label = (x: ProfileNode) => {
    const url = x.callFrame.url.replace(/^.*node_modules\//, '').replace(/^.*\/(src|bench)\//, '$1/');
    return `${x.callFrame.functionName || '(anon)'} ${url}:${x.callFrame.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let busy = 0;
  forEachBusySample(p, (x, us) => {
    busy += us;
    self.set(label(x), (self.get(label(x)) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = x.id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!);
      if (seen.has(l)) continue;
      seen.add(l);
      incl.set(l, (incl.get(l) ?? 0) + us);
    }
  });
  const fmt = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `${((us / busy) * 100).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n');
  return `self:\n${fmt(self)}\n\ninclusive:\n${fmt(incl)}`;
}

/** `work` on a pool of its own for `url`, closed after. */
async function withPool<T>(url: string, work: (pool: Pool) => Promise<T>): Promise<T> {
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

async function main(): Promise<void> {
  const cluster = await startBenchCluster();
  const appEnv = { WORKERS: '0', API_KEY_CACHE_TTL_MS: '5000', ...(JSON.parse(process.env.BENCH_APP_EXTRA_ENV ?? '{}') as Record<string, string>) };
  const [{ child: app, db }, ...baselines] = await startAppBuilds(cluster, appEnv);
  const pool = new Pool({ connectionString: db.url, max: 2 });
  const bare = await startChild<Ready>('bare-server.js', { BENCH_BARE_DATABASE_URL: db.url });
  try {
    await pool.query(`INSERT INTO bare_item (name, phone) SELECT 'Bench', '+7916' || g FROM generate_series(1, 20000) g`);
    const items = await idRange(pool, 'bare_item');
    const loads: [string, autocannon.Options, LoadTarget, typeof app][] = [];
    if (!CREATE) loads.push(['bare', getRandomIds(bare.ready.url, '/item/', items), { pid: bare.pid, cluster, databaseUrl: db.url }, bare]);
    for (const { label, child, db: its } of [{ label: '', child: app, db }, ...baselines]) {
      const t: LoadTarget = { pid: child.pid, cluster, databaseUrl: its.url };
      loads.push([`${label ? `${label} ` : ''}${PATH}`, await withPool(its.url, (p) => pathLoad(p, child.ready)), t, child]);
    }
    for (const [name, o, t] of loads) await measuredLoad(name, { ...o, duration: 3, connections: CONNECTIONS }, t);
    const best = new Map<string, { cpu: number; pg: number; rps: number }>();
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, o, t] of loads) {
        const m = await measuredLoad(name, { ...o, duration: SECONDS, connections: CONNECTIONS }, t);
        if (m.errors || m.non2xx) console.log(`${name}: ${m.errors} errors, ${m.non2xx} non-2xx`);
        const prev = best.get(name);
        if (m.serverCpuMs !== null && (!prev || m.serverCpuMs < prev.cpu))
          best.set(name, { cpu: m.serverCpuMs, pg: m.postgresCpuMs ?? NaN, rps: m.requestsPerSecond });
      }
    }
    console.log(`load average ${os.loadavg()[0].toFixed(2)}`);
    for (const [name, b] of best) console.log(`${name}: server CPU ${b.cpu} ms/request, PostgreSQL ${b.pg} ms, ${b.rps} req/s`);
    if (process.env.BENCH_PROFILE !== '0') {
      for (const [name, o, t, child] of loads) {
        await child.call('profile-start');
        await measuredLoad(name, { ...o, duration: SECONDS, connections: CONNECTIONS }, t);
        const file = await child.call<string>('profile-stop', path.join(os.tmpdir(), `detail-profile-${name.replace(/\W+/g, '-')}.cpuprofile`));
        console.log(`\n### ${name} (${file})\n${await topFunctions(file)}`);
      }
    }
  } finally {
    await app.stop();
    await bare.stop();
    for (const { child, db: its } of baselines) {
      await child.stop();
      await its.drop();
    }
    await pool.end();
    await db.drop();
    await cluster.stop();
  }
  process.exit(0);
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
