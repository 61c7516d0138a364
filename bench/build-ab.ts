import type autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Pool } from 'pg';
import { AppBuild, baselineDists, startAppBuilds } from './support/app-builds';
import { benchLeads } from './support/bench-leads';
import { describeMachine, startBenchCluster } from './support/cluster';
import { getRandomIds, idRange } from './support/load';
import { CONNECTIONS, interleaved, resultCells, ROUNDS, SECONDS, VariantResult } from './support/interleaved';
import { mdRow } from './support/measured-load';
import { BenchSection } from './support/report';

/**
 * This build against other builds on the create and detail paths, in one run, each build on its own database (`BENCH_BASELINE_DIST=<checkout>/dist`,
 * comma-separated for several). Each build runs alone in its process without workers, rounds interleaved path by path, the least disturbed
 * round counting; ratios are this build's throughput over the baseline's, by server CPU per request and by requests per second.
 */

/** `BENCH_AB_PATH=call` runs only the paths whose name holds each of these words (space-separated); unset: every path. */
const ONLY = (process.env.BENCH_AB_PATH ?? '').split(' ').filter(Boolean);

export async function buildAbBench(): Promise<BenchSection> {
  if (!baselineDists().length) throw new Error('build-ab compares builds: set BENCH_BASELINE_DIST to the dist/ of another build');
  const cluster = await startBenchCluster();
  const env = { WORKERS: '0', API_KEY_CACHE_TTL_MS: '5000' };
  const builds = await startAppBuilds(cluster, env);
  const machine = await describeMachine(builds[0].db.url);
  const data = new Map<AppBuild, { bodies: ReturnType<typeof benchLeads>; leads: Awaited<ReturnType<typeof idRange>> }>();
  const results: VariantResult[] = [];
  try {
    for (const b of builds) data.set(b, await buildData(b));
    const create = (b: AppBuild): autocannon.Options => ({
      url: `${b.child.ready.url}/v2/lead/create/`,
      requests: [
        {
          method: 'POST',
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            headers: { 'content-type': 'application/json', 'x-api-key': b.child.ready.apiKey! },
            body: JSON.stringify(data.get(b)!.bodies.lead()),
          }),
        },
      ],
    });
    const detail = (b: AppBuild) => getRandomIds(b.child.ready.url, '/v2/lead/detail/', data.get(b)!.leads, { 'x-api-key': b.child.ready.apiKey! });
    for (const [name, options] of [
      ['POST /v2/lead/create/', create],
      ['GET /v2/lead/detail/{id}/', detail],
      ['POST /v2/call/create/', callCreate],
    ] as const) {
      if (!ONLY.every((word) => name.includes(word))) continue;
      const variants = [];
      for (const b of builds) variants.push({ label: b.label, options: await options(b), target: { pid: b.child.pid, cluster, databaseUrl: b.db.url } });
      results.push(...(await interleaved(name, variants)));
    }
  } finally {
    for (const b of builds) {
      await b.child.stop();
      await b.db.drop();
    }
    await cluster.stop();
  }
  machine.loadEnd = os.loadavg()[0];
  return {
    bench: 'build-ab',
    machine,
    markdown: markdown(results),
    data: { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, builds: builds.map((b) => b.label), results },
  };
}

/**
 * Finished calls from the telephony platform, each with a new platform call id, on a random lead of the build's (the demo's and those
 * the create path made), with the demo's outcomes (answered, busy, no answer, voicemail) and no agent, as a dialer records them.
 */
async function callCreate(b: AppBuild): Promise<autocannon.Options> {
  const pool = new Pool({ connectionString: b.db.url, max: 1 });
  const leads = await idRange(pool, 'lead').finally(() => pool.end());
  const run = randomUUID().slice(0, 8);
  let n = 0;
  return {
    url: `${b.child.ready.url}/v2/call/create/`,
    requests: [
      {
        method: 'POST',
        setupRequest: (req: autocannon.Request) => {
          const leadId = leads.lo + Math.floor(Math.random() * (leads.hi - leads.lo + 1));
          return {
            ...req,
            headers: { 'content-type': 'application/json', 'x-api-key': b.child.ready.apiKey! },
            body: JSON.stringify({
              platformCallId: `ab-${run}-${n++}`,
              leadId,
              sipEndpointId: 1,
              statusId: 2 + (n % 4),
              direction: 'outgoing',
              totalDurationSeconds: 20,
              waitTimeDurationSeconds: 20,
              talkTimeDurationSeconds: 0,
            }),
          };
        },
      },
    ],
  };
}

/** A build's create bodies (a new phone each, one in ten a duplicate to link) into its first demo order, and its demo leads' ids. */
async function buildData(b: AppBuild) {
  const pool = new Pool({ connectionString: b.db.url, max: 1 });
  try {
    const [order] = (await pool.query(`SELECT id, code FROM call_order ORDER BY id LIMIT 1`)).rows as { id: number; code: string }[];
    return { bodies: benchLeads(order), leads: await idRange(pool, 'lead') };
  } finally {
    await pool.end();
  }
}

function markdown(results: VariantResult[]): string {
  const lines = [
    `${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per build and path, interleaved. CPU and p50: the build's round with the least ` +
      'server CPU per request; req/s: its round with the most. "current vs": CPU per request of the baseline over this build (the throughput ' +
      'ratio on cores of their own), and requests per second of this build over the baseline (above 1: this build is faster).',
    '',
    mdRow([
      'Path',
      'build',
      'server CPU ms',
      'PostgreSQL CPU ms',
      'p50 ms',
      'req/s',
      'errors / non-2xx (all rounds)',
      'current vs: server CPU',
      'current vs: req/s',
    ]),
    mdRow(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  const ratio = (a: number | null, b: number | null) => (a && b ? `${(a / b).toFixed(2)}x` : '');
  for (const r of results) {
    const current = results.find((x) => x.path === r.path && x.label === 'current')!;
    const isBaseline = r.label !== 'current';
    lines.push(
      mdRow([
        ...resultCells(r),
        isBaseline ? ratio(r.best.serverCpuMs, current.best.serverCpuMs) : '',
        isBaseline ? ratio(current.mostRequestsPerSecond, r.mostRequestsPerSecond) : '',
      ]),
    );
  }
  return lines.join('\n');
}
