import type autocannon from 'autocannon';
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { Pool } from 'pg';
import { benchLeads } from './support/bench-leads';
import { startChild } from './support/child';
import { createBenchDatabase, describeMachine, startBenchCluster } from './support/cluster';
import { getRandomIds, idRange } from './support/load';
import { LoadTarget, MeasuredLoad, mdRow, measuredLoad, SECONDS } from './support/measured-load';
import { ProfileSummary, summariseProfile } from './support/profile-summary';
import { BenchSection, RESULTS_DIR } from './support/report';
import os from 'node:os';

/**
 * A burst of leads from an ad campaign against the bare baselines (bench/support/bare-server.ts), one cluster, 50 connections: the
 * service's sync create, with Idempotency-Key, async accept (then the drain) and detail. Per load: server and PostgreSQL CPU per request
 * and the costliest statements; then a CPU profile of each server under the create load, by layer.
 */

interface Ready {
  url: string;
  apiKey?: string;
}

type Rows = Record<string, MeasuredLoad>;

/** The lead indexes the create's own statements use, besides those behind constraints (the primary key): the async job's key and the previous-lead lookup. */
const CREATE_OWN_INDEXES = ['lead_order_job_idx', 'lead_order_phone_id_idx'];
/** The statement triggers every lead insert fires: list counters and the event outbox. */
const LEAD_INSERT_TRIGGERS = ['lead_count_ins', 'event_lead_ins'];

export async function leadCreateBench(): Promise<BenchSection> {
  const cluster = await startBenchCluster();
  const db = await createBenchDatabase(cluster);
  const machine = await describeMachine(db.url);
  const pool = new Pool({ connectionString: db.url, max: 2 });
  const appEnv = { WORKERS: process.env.BENCH_WORKERS ?? '2', API_KEY_CACHE_TTL_MS: '5000' };
  const app = await startChild<Ready>('app-server.js', { BENCH_APP_DATABASE_URL: db.url, BENCH_APP_ENV: JSON.stringify(appEnv) });
  const bare = await startChild<Ready>('bare-server.js', { BENCH_BARE_DATABASE_URL: db.url });
  const rows: Rows = {};
  let drain: { leads: number; failed: number; seconds: number; perSecond: number };
  const profiles: Record<string, ProfileSummary> = {};
  const schema = { indexesDropped: [] as string[], indexesKept: 0 };
  try {
    await app.call('seed');
    const [order] = (await pool.query(`SELECT id, code FROM call_order ORDER BY id LIMIT 1`)).rows as { id: number; code: string }[];
    const appTarget: LoadTarget = { pid: app.pid, cluster, databaseUrl: db.url };
    const bareTarget: LoadTarget = { pid: bare.pid, cluster, databaseUrl: db.url };
    const bodies = benchLeads(order);
    const body = () => JSON.stringify(bodies.lead());
    const post = (base: string, p: string, headers: Record<string, string> = {}, idempotent = false): autocannon.Options => ({
      url: `${base}${p}`,
      requests: [
        {
          method: 'POST',
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            headers: { 'content-type': 'application/json', ...headers, ...(idempotent ? { 'idempotency-key': `bench-${bodies.sent()}` } : {}) },
            body: body(),
          }),
        },
      ],
    });
    const key = { 'x-api-key': app.ready.apiKey! };

    // JIT and pools warm, tables past their first pages.
    await measuredLoad('warm-up', { ...post(app.ready.url, '/v2/lead/create/', key), duration: 3 }, appTarget);
    await measuredLoad('warm-up', { ...post(bare.ready.url, '/lead'), duration: 3 }, bareTarget);
    await measuredLoad('warm-up', { ...post(bare.ready.url, '/insert'), duration: 3 }, bareTarget);

    rows.bareInsert = await measuredLoad('bare: single-row INSERT', post(bare.ready.url, '/insert'), bareTarget);
    rows.bareCreate = await measuredLoad("bare: the service's create SQL", post(bare.ready.url, '/lead'), bareTarget);
    rows.create = await measuredLoad('POST /v2/lead/create/', post(app.ready.url, '/v2/lead/create/', key), appTarget);
    rows.createIdem = await measuredLoad('POST /v2/lead/create/ + Idempotency-Key', post(app.ready.url, '/v2/lead/create/', key, true), appTarget);

    const count = async (sql: string) => Number((await pool.query(sql)).rows[0].n);
    const before = await count(`SELECT count(*) AS n FROM lead`);
    const started = Date.now();
    rows.async = await measuredLoad('POST /v2/lead/create-async/ (accepted)', post(app.ready.url, '/v2/lead/create-async/', key), appTarget);
    while ((await count(`SELECT count(*) AS n FROM lead_async_job WHERE state = 'queued'`)) > 0 && Date.now() - started < 600_000) {
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (Date.now() - started) / 1000;
    const made = (await count(`SELECT count(*) AS n FROM lead`)) - before;
    drain = {
      leads: made,
      failed: await count(`SELECT count(*) AS n FROM lead_async_job WHERE state = 'failed'`),
      seconds,
      perSecond: Math.round(made / seconds),
    };

    const items = await idRange(pool, 'bare_item');
    const leads = await idRange(pool, 'lead');
    rows.bareSelect = await measuredLoad('bare: SELECT by id', getRandomIds(bare.ready.url, '/item/', items), bareTarget);
    rows.bareDetail = await measuredLoad("bare: the service's detail SQL", getRandomIds(bare.ready.url, '/lead/', leads), bareTarget);
    rows.detail = await measuredLoad('GET /v2/lead/detail/{id}/', getRandomIds(app.ready.url, '/v2/lead/detail/', leads, key), appTarget);

    // Profiles last: the profiler slows the process it samples.
    const dir = path.join(RESULTS_DIR, 'profiles');
    await mkdir(dir, { recursive: true });
    for (const [name, child, target, options] of [
      ['service-create', app, appTarget, post(app.ready.url, '/v2/lead/create/', key)],
      ['bare-create', bare, bareTarget, post(bare.ready.url, '/lead')],
      ['service-detail', app, appTarget, getRandomIds(app.ready.url, '/v2/lead/detail/', leads, key)],
    ] as const) {
      await child.call('profile-start');
      await measuredLoad(`profile ${name}`, options, target);
      const file = await child.call<string>('profile-stop', path.join(dir, `${process.env.BENCH_LABEL ?? 'run'}-${name}.cpuprofile`));
      profiles[name] = await summariseProfile(file);
    }

    // What the create pays for in PostgreSQL: its SQL again on the bare server without the lead indexes it does not use, then also
    // without the statement triggers (counters, outbox). Last, as both break the service's promises; the database is dropped after.
    const dropped: { indexname: string }[] = (
      await pool.query(
        `SELECT i.relname AS indexname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
          WHERE x.indrelid = 'lead'::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
            AND i.relname <> ALL($1::text[])`,
        [CREATE_OWN_INDEXES],
      )
    ).rows;
    for (const { indexname } of dropped) await pool.query(`DROP INDEX ${indexname}`);
    schema.indexesDropped = dropped.map((d) => d.indexname);
    schema.indexesKept = Number((await pool.query(`SELECT count(*) AS n FROM pg_index WHERE indrelid = 'lead'::regclass`)).rows[0].n);
    await measuredLoad('warm-up', { ...post(bare.ready.url, '/lead'), duration: 3 }, bareTarget);
    rows.bareCreateFewIndexes = await measuredLoad(
      `bare: the service's create SQL, ${schema.indexesKept} lead indexes`,
      post(bare.ready.url, '/lead'),
      bareTarget,
    );
    for (const trigger of LEAD_INSERT_TRIGGERS) await pool.query(`ALTER TABLE lead DISABLE TRIGGER ${trigger}`);
    rows.bareCreateNoTriggers = await measuredLoad(
      `bare: the service's create SQL, ${schema.indexesKept} lead indexes, no insert triggers`,
      post(bare.ready.url, '/lead'),
      bareTarget,
    );
  } finally {
    await app.stop();
    await bare.stop();
    await pool.end();
    await db.drop();
    await cluster.stop();
  }
  machine.loadEnd = os.loadavg()[0];
  return { bench: 'lead-create', machine, markdown: markdown(rows, drain, profiles, schema), data: { rows, drain, profiles, schema } };
}

function markdown(
  r: Rows,
  drain: { leads: number; failed: number; seconds: number; perSecond: number },
  profiles: Record<string, ProfileSummary>,
  schema: { indexesDropped: string[]; indexesKept: number },
): string {
  const ratio = (a: MeasuredLoad | undefined, b: MeasuredLoad | undefined) => (a && b ? `${(a.requestsPerSecond / b.requestsPerSecond).toFixed(2)}x` : '');
  const lines = [
    `50 connections, ${SECONDS} s per load. CPU ms per request: the server process (all threads) and the whole PostgreSQL cluster.`,
    '',
    mdRow(['Path', 'req/s', 'p50 ms', 'p99 ms', 'errors / non-2xx', 'server CPU ms', 'PostgreSQL CPU ms', 'vs bare single-row', "vs bare, service's SQL"]),
    mdRow(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  const line = (x: MeasuredLoad | undefined, single?: MeasuredLoad, own?: MeasuredLoad) =>
    x &&
    lines.push(
      mdRow([
        x.name,
        x.requestsPerSecond,
        x.p50Ms,
        x.p99Ms,
        `${x.errors} / ${x.non2xx}`,
        x.serverCpuMs ?? '',
        x.postgresCpuMs ?? '',
        ratio(x, single),
        ratio(x, own),
      ]),
    );
  line(r.bareInsert);
  line(r.bareCreate, r.bareInsert);
  line(r.create, r.bareInsert, r.bareCreate);
  line(r.createIdem, r.bareInsert, r.bareCreate);
  line(r.async, r.bareInsert, r.bareCreate);
  line(r.bareSelect);
  line(r.bareDetail, r.bareSelect);
  line(r.detail, r.bareSelect, r.bareDetail);
  if (r.bareCreateFewIndexes) {
    lines.push(
      '',
      "What the create pays for in PostgreSQL: the service's create SQL on the bare server, full schema, then without the lead indexes its " +
        `own statements do not use (${schema.indexesDropped.join(', ')}), then also without the insert triggers (${LEAD_INSERT_TRIGGERS.join(', ')}). ` +
        'Measured last; neither variant keeps what the service promises (lists, exact totals, events).',
      '',
      mdRow(['Schema', 'req/s', 'p50 ms', 'server CPU ms', 'PostgreSQL CPU ms', 'vs bare single-row']),
      mdRow(['---', '---:', '---:', '---:', '---:', '---:']),
    );
    for (const x of [r.bareCreate, r.bareCreateFewIndexes, r.bareCreateNoTriggers])
      if (x) lines.push(mdRow([x.name, x.requestsPerSecond, x.p50Ms, x.serverCpuMs ?? '', x.postgresCpuMs ?? '', ratio(x, r.bareInsert)]));
  }
  lines.push(
    '',
    `Async: ${drain.leads} leads created by the workers (${drain.failed} failed), accepted and drained in ${drain.seconds.toFixed(1)} s: ` +
      `${drain.perSecond} leads/s end to end (${r.create ? (drain.perSecond / r.create.requestsPerSecond).toFixed(2) : '?'}x the sync create rate).`,
  );
  for (const key of ['create', 'bareCreate', 'detail'] as const) {
    const x = r[key];
    if (!x?.statements.length) continue;
    lines.push('', `Statements of "${x.name}" (pg_stat_statements; nested = inside a function or trigger), per request:`, '');
    lines.push(mdRow(['calls', 'ms', 'level', 'statement']), mdRow(['---:', '---:', '---', '---']));
    for (const s of x.statements.slice(0, 10))
      lines.push(mdRow([s.callsPerRequest, s.msPerRequest, s.toplevel ? 'top' : 'nested', `\`${s.query.replace(/\|/g, '\\|')}\``]));
  }
  // CPU per request of the same path without the profiler, split by the profile's shares.
  const cpuOf: Record<string, number | null | undefined> = {
    'service-create': r.create?.serverCpuMs,
    'bare-create': r.bareCreate?.serverCpuMs,
    'service-detail': r.detail?.serverCpuMs,
  };
  for (const [name, p] of Object.entries(profiles)) {
    const cpu = cpuOf[name] ?? null;
    const ms = (share: number) => (cpu === null ? '' : (share * cpu).toFixed(3));
    lines.push(
      '',
      `CPU profile, ${name} under load (${p.samples} busy samples), split of the ${cpu ?? '?'} ms of process CPU per request. Layers on the stack (inclusive, they nest):`,
      '',
    );
    lines.push(mdRow(['layer', 'share', 'ms/request']), mdRow(['---', '---:', '---:']));
    for (const l of p.layers) lines.push(mdRow([l.layer, `${(l.share * 100).toFixed(1)}%`, ms(l.share)]));
    lines.push('', 'Self time by package (sums to 100% over all packages):', '', mdRow(['where', 'share', 'ms/request']), mdRow(['---', '---:', '---:']));
    for (const s of p.selfByPackage) lines.push(mdRow([s.where, `${(s.share * 100).toFixed(1)}%`, ms(s.share)]));
  }
  return lines.join('\n');
}
