import os from 'node:os';
import { Pool } from 'pg';
import { ChildServer, startChild } from './support/child';
import { assignBenchClient, BenchClient, clientCases, clientLeadsPercent, clientPhone, createApiKey } from './support/client-cases';
import { BenchCluster, BenchDatabase, cloneBenchDatabase, createBenchDatabase, describeMachine, startBenchCluster } from './support/cluster';
import { mdRow } from './support/measured-load';
import { settle, createPopulation, grow, Population } from './support/realistic-data';
import { BenchSection } from './support/report';

/**
 * PRODUCT.md "Lists" on production-shaped data (realistic-data.ts): lead and call tables grown from 10k to 1M rows, an app per size,
 * each case's p50/p95 and `total` checked against count(*); a client owns every third order and its key's lists are measured too.
 * Goal: p50 at the last size within 1.5x of the first. `npm run bench -- lists` (about 10 minutes, mostly growing the tables).
 */

/** The page size asked for: the API's largest, smaller where a filter matches fewer rows at the smallest size (see listsBench). */
const LIMIT = 100;
const WARMUP = 20;
const REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 300);
const STAGES = (process.env.BENCH_LIST_STAGES ?? '10000,1000000').split(',').map(Number);
/** Only the cases whose name matches (a regular expression), e.g. BENCH_LIST_CASES=lookup. */
const CASES = new RegExp(process.env.BENCH_LIST_CASES ?? '');

export interface Filter {
  orderIds?: number[];
  statusIds?: number[];
  userIds?: number[];
  leadIds?: number[];
  from?: Date;
  to?: Date;
  offset?: number;
  /** Lookups. */
  phone?: string;
  externalIdCrmA?: string;
}

export interface Case {
  name: string;
  filter: Filter;
  /** Requested with client C's key (support/client-cases.ts): the exact count is over C's orders. */
  client?: boolean;
}

interface CaseResult {
  /** The page size asked for. */
  limit: number;
  p50: number;
  p95: number;
  total: number;
  exact: number;
  /** Time of the statements the service sent (pg_stat_statements, top level), ms per request. */
  dbMs: number | null;
  statements: { query: string; meanMs: number; calls: number }[];
}

type Kind = 'leads' | 'calls';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** The cases at one size; time ranges follow the data (the middle 40% of the arrivals, the last day). */
function cases(kind: Kind, pop: Population, size: number, fewLeads: number[], client: BenchClient, phone: string): Case[] {
  const [big, , , , , , , mid] = pop.zipf;
  const small = pop.zipf[29];
  const middle = {
    from: new Date(pop.timeOf(Math.floor(size * 0.3)).getTime() + 17 * MIN + 123),
    to: new Date(pop.timeOf(Math.floor(size * 0.7)).getTime() + 43 * MIN + 456),
  };
  const last = pop.timeOf(size - 1).getTime();
  const day = { from: new Date(last - 36 * HOUR + 17 * MIN + 123), to: new Date(last - 12 * HOUR + 43 * MIN + 456) };
  const ofClient = clientCases(kind, pop, client, phone, { middle, day });
  const shared: Case[] = [
    { name: 'big order (~24%)', filter: { orderIds: [big] } },
    { name: 'mid order (~3%)', filter: { orderIds: [mid] } },
    { name: 'small order (~0.8%)', filter: { orderIds: [small] } },
    { name: 'tiny order (1 in 5000)', filter: { orderIds: [pop.tiny[0]] } },
    { name: 'several orders (3)', filter: { orderIds: [pop.zipf[2], pop.zipf[9], pop.zipf[24]] } },
  ];
  if (kind === 'leads') {
    return [
      ...shared,
      { name: 'big order + status (1 in 15)', filter: { orderIds: [big], statusIds: [30] } },
      { name: 'small order + statuses 10,11', filter: { orderIds: [small], statusIds: [10, 11] } },
      { name: 'big order + createdAt middle 40%', filter: { orderIds: [big], ...middle } },
      { name: 'small order + createdAt middle 40%', filter: { orderIds: [small], ...middle } },
      { name: 'small order + createdAt last day', filter: { orderIds: [small], ...day } },
      { name: 'createdAt last day, no order', filter: { ...day } },
      { name: 'createdAt middle 40%, no order', filter: { ...middle } },
      { name: 'status only (1 in 15)', filter: { statusIds: [30] } },
      { name: 'no filter', filter: {} },
      { name: 'no filter, offset 5000', filter: { offset: 5000 } },
      { name: 'big order, offset 1000', filter: { orderIds: [big], offset: 1000 } },
      { name: 'paused-resumed order', filter: { orderIds: [pop.paused] } },
      { name: 'paused-resumed order + statuses 10,11', filter: { orderIds: [pop.paused], statusIds: [10, 11] } },
      { name: 'order at both ends', filter: { orderIds: [pop.ends] } },
      { name: 'order at both ends, offset 150', filter: { orderIds: [pop.ends], offset: 150 } },
      // Lookups of a lead that arrived while the table was small (realistic-data.ts: its phone and CRM id).
      { name: 'lookup: phone', filter: { phone: '+79160001234' } },
      { name: 'lookup: externalIdCrmA', filter: { externalIdCrmA: 'CRM-A-1234' } },
      { name: 'lookup: externalIdCrmA + statuses 1-4', filter: { externalIdCrmA: 'CRM-A-1234', statusIds: [1, 2, 3, 4] } },
      ...ofClient,
    ];
  }
  const agent = pop.agents[7];
  return [
    ...shared,
    { name: 'big order + statuses 4,5', filter: { orderIds: [big], statusIds: [4, 5] } },
    { name: 'big order + createdAt middle 40%', filter: { orderIds: [big], ...middle } },
    { name: 'small order + createdAt last day', filter: { orderIds: [small], ...day } },
    { name: 'big order + agent', filter: { orderIds: [big], userIds: [agent] } },
    { name: 'big order + agent + statuses + range', filter: { orderIds: [big], userIds: [agent], statusIds: [1, 2], ...middle } },
    { name: 'leadIds (5 leads)', filter: { leadIds: fewLeads } },
    { name: 'big order, offset 1000', filter: { orderIds: [big], offset: 1000 } },
    { name: 'paused-resumed order', filter: { orderIds: [pop.paused] } },
    { name: 'order at both ends', filter: { orderIds: [pop.ends] } },
    { name: 'order at both ends, offset 60', filter: { orderIds: [pop.ends], offset: 60 } },
    ...ofClient,
  ];
}

function queryString(f: Filter, limit: number): string {
  const q: string[] = [`limit=${limit}`];
  if (f.orderIds) q.push(`orderIds=${f.orderIds.join(',')}`);
  if (f.statusIds) q.push(`statusIds=${f.statusIds.join(',')}`);
  if (f.userIds) q.push(`userIds=${f.userIds.join(',')}`);
  if (f.leadIds) q.push(`leadIds=${f.leadIds.join(',')}`);
  if (f.from) q.push(`createdAt[0]=${encodeURIComponent(f.from.toISOString())}`);
  if (f.to) q.push(`createdAt[1]=${encodeURIComponent(f.to.toISOString())}`);
  if (f.offset) q.push(`offset=${f.offset}`);
  if (f.phone) q.push(`phone=${encodeURIComponent(f.phone)}`);
  if (f.externalIdCrmA) q.push(`externalIdCrmA=${encodeURIComponent(f.externalIdCrmA)}`);
  return q.join('&');
}

/** count(*) of the rows the filter matches, within the orders `within` when set (a client key's). */
async function exactCount(pool: Pool, kind: Kind, f: Filter, within?: number[]): Promise<number> {
  const conds: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, v: unknown) => (params.push(v), conds.push(sql.replace('?', `$${params.length}`)));
  if (within) add('order_id = ANY(?::int[])', within);
  if (f.orderIds) add('order_id = ANY(?::int[])', f.orderIds);
  if (f.statusIds) add('status_id = ANY(?::int[])', f.statusIds);
  if (f.userIds) add('user_id = ANY(?::int[])', f.userIds);
  if (f.leadIds) add('lead_id = ANY(?::int[])', f.leadIds);
  if (f.from) add('created_at >= ?', f.from);
  if (f.to) add('created_at <= ?', f.to);
  if (f.phone) add('phone = ?', f.phone);
  if (f.externalIdCrmA) add('external_id_crm_a = ?', f.externalIdCrmA);
  const table = kind === 'leads' ? 'lead' : 'call';
  return Number((await pool.query(`SELECT count(*) AS n FROM ${table} ${conds.length ? `WHERE ${conds.join(' AND ')}` : ''}`, params)).rows[0].n);
}

interface Target {
  url: string;
  apiKey: string;
  pool: Pool;
}

/**
 * p50/p95 of sequential GETs of one case at every size, interleaved (BATCH requests at one size,
 * then the next...), so a change in the machine's load during the run falls on every size alike;
 * with the time the service's statements took in PostgreSQL (top level, per request).
 */
async function measureCase(targets: Target[], paths: string[], statements: boolean): Promise<Omit<CaseResult, 'exact' | 'limit'>[]> {
  const BATCH = 10;
  const times: number[][] = targets.map(() => []);
  const totals: number[] = targets.map(() => -1);
  const get = async (i: number) => {
    const started = performance.now();
    const res = await fetch(`${targets[i].url}${paths[i]}`, { headers: { 'x-api-key': targets[i].apiKey } });
    const body = (await res.json()) as { data: { total?: number; leads?: { total: number } } };
    if (res.status !== 200) throw new Error(`${paths[i]}: HTTP ${res.status} ${JSON.stringify(body)}`);
    // Lists answer `total`; the order stats `leads.total`.
    totals[i] = body.data.total ?? body.data.leads?.total ?? -1;
    return performance.now() - started;
  };
  for (let i = 0; i < WARMUP; i++) for (let t = 0; t < targets.length; t++) await get(t);
  if (statements) await targets[0].pool.query(`SELECT pg_stat_statements_reset()`);
  for (let done = 0; done < REQUESTS; done += BATCH) {
    for (let t = 0; t < targets.length; t++) for (let i = 0; i < BATCH; i++) times[t].push(await get(t));
  }
  return Promise.all(
    targets.map(async (target, t) => {
      const sorted = times[t].sort((a, b) => a - b);
      const pick = (q: number) => Math.round(sorted[Math.floor(sorted.length * q)] * 100) / 100;
      let dbMs: number | null = null;
      let top: CaseResult['statements'] = [];
      if (statements) {
        const rows = (
          await target.pool.query(
            `SELECT query, calls, total_plan_time + total_exec_time AS ms FROM pg_stat_statements
              WHERE toplevel AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND query NOT LIKE '%pg_stat_statements%' ORDER BY ms DESC`,
          )
        ).rows as { query: string; calls: string; ms: number }[];
        dbMs = Math.round((rows.reduce((s, r) => s + r.ms, 0) / sorted.length) * 1000) / 1000;
        top = rows.slice(0, 3).map((r) => ({
          query: r.query.replace(/\s+/g, ' ').slice(0, 200),
          calls: Number(r.calls),
          meanMs: Math.round((r.ms / Number(r.calls)) * 1000) / 1000,
        }));
      }
      return { p50: pick(0.5), p95: pick(0.95), total: totals[t], dbMs, statements: top };
    }),
  );
}

export async function listsBench(kinds: Kind[]): Promise<BenchSection> {
  const cluster: BenchCluster = await startBenchCluster();
  const db = await createBenchDatabase(cluster);
  const machine = await describeMachine(db.url);
  const results: Record<Kind, Record<string, CaseResult[]>> = { leads: {}, calls: {} };
  const growth: { size: number; seconds: number; leads: number; calls: number }[] = [];
  const clientInfo = { orders: 0, leadsPercent: 0 };
  // The table at each size: a copy frozen at every stage but the last, the grown table itself at the last.
  const sizes: { size: number; db: BenchDatabase }[] = [];
  const apps: ChildServer<{ url: string; apiKey: string }>[] = [];
  const pools: Pool[] = [];
  try {
    let pool = new Pool({ connectionString: db.url, max: 2 });
    const pop = await createPopulation(pool, STAGES);
    const client = await assignBenchClient(pool, pop);
    let size = 0;
    for (const [i, stage] of STAGES.entries()) {
      const t0 = performance.now();
      await grow(pool, pop, size, stage, kinds.includes('calls'));
      await settle(db.url, pool);
      size = stage;
      const [counts] = (await pool.query(`SELECT (SELECT count(*) FROM lead) AS leads, (SELECT count(*) FROM call) AS calls`)).rows;
      growth.push({ size, seconds: Math.round((performance.now() - t0) / 100) / 10, leads: Number(counts.leads), calls: Number(counts.calls) });
      if (i === STAGES.length - 1) {
        sizes.push({ size, db });
        break;
      }
      await pool.end();
      sizes.push({ size, db: await cloneBenchDatabase(cluster, db) });
      pool = new Pool({ connectionString: db.url, max: 2 });
    }
    await pool.end();
    const targets: Target[] = [];
    for (const s of sizes) {
      const app = await startChild<{ url: string; apiKey: string }>('app-server.js', {
        BENCH_APP_DATABASE_URL: s.db.url,
        BENCH_APP_ENV: JSON.stringify({ WORKERS: '0', API_KEY_CACHE_TTL_MS: '5000' }),
      });
      apps.push(app);
      const p = new Pool({ connectionString: s.db.url, max: 2 });
      pools.push(p);
      targets.push({ url: app.ready.url, apiKey: app.ready.apiKey, pool: p });
    }
    const clientTargets = await Promise.all(targets.map(async (t) => ({ ...t, apiKey: await createApiKey(t.url, t.apiKey, 'bench-client', client.id) })));
    const phone = await clientPhone(pools[0], client);
    Object.assign(clientInfo, { orders: client.orderIds.length, leadsPercent: await clientLeadsPercent(pools[pools.length - 1], client) });
    const few = await Promise.all(
      pools.map(
        async (p) =>
          (
            await p.query(`SELECT percentile_disc(ARRAY[0.1, 0.3, 0.5, 0.7, 0.9]) WITHIN GROUP (ORDER BY lead_id) AS ids FROM call WHERE order_id = $1`, [
              pop.zipf[0],
            ])
          ).rows[0].ids as number[] | null,
      ),
    );
    for (const kind of kinds) {
      const perSize = sizes.map((s, i) => cases(kind, pop, s.size, few[i] ?? [1], client, phone));
      const path = kind === 'leads' ? '/v2/lead/' : '/v2/call/';
      for (const [c, { name, client: asClient }] of perSize[0].entries()) {
        if (!CASES.test(name)) continue;
        // Pages of the same size at every size: a filter matching 11 rows at 10k and 1,064 at 1M is
        // compared on pages of 11 rows, so the ratio is the cost of the data, not of a longer page.
        const exact = await Promise.all(pools.map((p, i) => exactCount(p, kind, perSize[i][c].filter, asClient ? client.orderIds : undefined)));
        const offset = perSize[0][c].filter.offset ?? 0;
        const limit = Math.max(1, Math.min(LIMIT, exact[0] - offset));
        const measured = await measureCase(
          asClient ? clientTargets : targets,
          perSize.map((cs) => `${path}?${queryString(cs[c].filter, limit)}`),
          cluster.statements,
        );
        results[kind][name] = measured.map((r, i) => ({ ...r, limit, exact: exact[i] }));
      }
      // The order stats: counters and indexed ranges, so the same cost at every size.
      for (const [which, orderId] of [
        ['big order (~24%)', pop.zipf[0]],
        ['small order (~0.8%)', pop.zipf[29]],
      ] as const) {
        const name = `GET /v2/order/stats/: ${which}`;
        if (kind !== 'leads' || !CASES.test(name)) continue;
        const exact = await Promise.all(pools.map((p) => exactCount(p, 'leads', { orderIds: [orderId] })));
        const measured = await measureCase(
          targets,
          sizes.map(() => `/v2/order/stats/${orderId}/`),
          cluster.statements,
        );
        results.leads[name] = measured.map((r, i) => ({ ...r, limit: 0, exact: exact[i] }));
      }
    }
  } finally {
    for (const app of apps) await app.stop();
    for (const p of pools) await p.end();
    for (const s of sizes) if (s.db !== db) await s.db.drop();
    await db.drop();
    await cluster.stop();
  }
  machine.loadEnd = os.loadavg()[0];
  return {
    bench: `lists (${kinds.join(', ')})`,
    machine,
    markdown: markdown(kinds, results, growth, clientInfo),
    data: { stages: STAGES, growth, client: clientInfo, results },
  };
}

function markdown(
  kinds: Kind[],
  results: Record<Kind, Record<string, CaseResult[]>>,
  growth: { size: number; seconds: number; leads: number; calls: number }[],
  client: { orders: number; leadsPercent: number },
): string {
  const sizes = growth.map((g) => (g.size >= 1e6 ? `${g.size / 1e6}M` : `${g.size / 1e3}k`));
  const lines = [
    `limit=${LIMIT} (fewer where the filter matches fewer rows at the smallest size: the same page size at every size), ` +
      `${REQUESTS} sequential requests per case and size, sizes in turn, after ${WARMUP} of warm-up; p50 (p95) in ms; ` +
      `DB = time of the statements the service sent, ms per request (pg_stat_statements).`,
    `Sizes: ${growth.map((g) => `${g.leads} leads / ${g.calls} calls (grown and compacted in ${g.seconds} s)`).join('; ')}.`,
    `"client key" cases: requested with a key of client C, which owns ${client.orders} of the 34 orders, interleaved with the others ` +
      `(${client.leadsPercent}% of the leads at the last size); their exact count is over C's orders.`,
  ];
  for (const kind of kinds) {
    lines.push('', `### ${kind === 'leads' ? 'GET /v2/lead/' : 'GET /v2/call/'}`, '');
    lines.push(
      mdRow([
        'case',
        'limit',
        ...sizes.map((s) => `p50 (p95) at ${s}`),
        `ratio ${sizes[sizes.length - 1]}/${sizes[0]}`,
        ...sizes.map((s) => `DB at ${s}`),
        'total at each size (exact?)',
      ]),
    );
    lines.push(mdRow(['---', '---:', ...sizes.map(() => '---:'), '---:', ...sizes.map(() => '---:'), '---']));
    for (const [name, rs] of Object.entries(results[kind])) {
      const ratio = rs[rs.length - 1].p50 / rs[0].p50;
      lines.push(
        mdRow([
          name,
          rs[0].limit,
          ...rs.map((r) => `${r.p50} (${r.p95})`),
          `${ratio > 1.5 ? '**' : ''}${ratio.toFixed(2)}x${ratio > 1.5 ? '**' : ''}`,
          ...rs.map((r) => r.dbMs ?? ''),
          rs.map((r) => `${r.total}${r.total === r.exact ? '' : ` (count(*) ${r.exact}!)`}`).join(' / '),
        ]),
      );
    }
  }
  return lines.join('\n');
}
