import { DataSource } from 'typeorm';
import { measure, REQUESTS, Stat } from './support/latency';
import { CallsRepository } from '../src/modules/calls/persistence/calls.repository';
import { CallCountersCompactor } from '../src/modules/calls/persistence/call-counters.compactor';
import { machine, startBenchApp, startBenchDatabase } from './support/bench-app';

/**
 * PRODUCT.md "Lists": a call list page, exact `total` included, must stay within 1.5x of its
 * 10k-row latency at 1M rows. Seeds one order with 10k calls (4 per lead, 20 agents, 10% without
 * an agent, created over the past year in id order), measures list pages with the filters below,
 * grows the order to 1M calls with the same distribution and measures again. Prints p50/p95 per
 * query and the 1M/10k ratio, then EXPLAIN of the page and total queries on the big table.
 * `npm run bench -- calls-list` (a few minutes, mostly seeding).
 *
 * Last run (2 vCPU Xeon 2.1 GHz, 24 GiB, Node 24, embedded PostgreSQL 18.4), p50 ms at 10k -> 1M:
 *   order, first page               3.35 -> 2.70  (0.80x)
 *   order + createdAt range         3.96 -> 3.71  (0.94x)
 *   order + statusIds=4,5           2.77 -> 3.07  (1.11x)
 *   leadIds (5 leads)               2.46 -> 2.54  (1.03x)
 *   order + userIds (1 agent)       3.24 -> 2.88  (0.89x)
 *   order + user + status + range   3.93 -> 4.11  (1.05x)
 *   order, offset 5000              4.09 -> 4.00  (0.98x)
 * A plain count(*) of the order's 1M calls takes ~130 ms; the totals here take 0.05-0.5 ms.
 */

const SMALL = 10_000;
const LARGE = 1_000_000;
const CHUNK = 200_000;
const CALLS_PER_LEAD = 4;
const AGENTS = 20;

interface Fixture {
  orderId: number;
  sipId: number;
  users: number[];
}

/** `count` calls of the order, `CALLS_PER_LEAD` per lead, creation times over the past year in id order. */
async function seed(ds: DataSource, f: Fixture, count: number): Promise<{ firstLeadId: number; leads: number }> {
  const leads = Math.ceil(count / CALLS_PER_LEAD);
  for (let start = 0; start < leads; start += CHUNK) {
    await ds.query(
      `INSERT INTO lead (order_id, phone, lead_type, status_id, utc_offset, created_at, updated_at)
       SELECT $1, '+7916' || lpad(i::text, 7, '0'), 'straight', 2, 3,
              now() - make_interval(secs => (($4 - i)::double precision / $4) * 365 * 86400),
              now() - make_interval(secs => (($4 - i)::double precision / $4) * 365 * 86400)
       FROM generate_series($2::int, $3::int - 1) AS i`,
      [f.orderId, start, Math.min(leads, start + CHUNK), leads],
    );
  }
  const [{ first }]: { first: number }[] = await ds.query(`SELECT min(id) AS first FROM lead WHERE order_id = $1`, [f.orderId]);
  for (let start = 0; start < count; start += CHUNK) {
    // Status mix of a working campaign, agents evenly (10% of calls without one), independent of each other.
    await ds.query(
      `INSERT INTO call (order_id, lead_id, user_id, sip_endpoint_id, status_id, direction, total_duration_seconds,
                         wait_time_duration_seconds, talk_time_duration_seconds, client_phone, platform_call_id, created_at, recorded_at)
       SELECT $1, $2::int + i / ${CALLS_PER_LEAD},
              CASE WHEN abs(hashtext(i::text || 'n')) % 10 = 0 THEN NULL ELSE ($3::int[])[1 + abs(hashtext(i::text || 'u')) % ${AGENTS}] END,
              $4, (ARRAY[1,1,1,2,2,2,3,4,5,6])[1 + abs(hashtext(i::text)) % 10], 'outgoing', 60, 10, 40,
              '7916' || lpad((i / ${CALLS_PER_LEAD})::text, 7, '0'), 'bench-' || i,
              now() - make_interval(secs => (($7 - i)::double precision / $7) * 365 * 86400), now()
       FROM generate_series($5::int, $6::int - 1) AS i`,
      [f.orderId, first, f.users, f.sipId, start, Math.min(count, start + CHUNK), count],
    );
  }
  return { firstLeadId: first, leads };
}

/** Folds every pending delta (the app's own compactor may hold a set's lock meanwhile), then fresh statistics. */
async function compactAndAnalyze(ds: DataSource): Promise<void> {
  const compactor = new CallCountersCompactor(ds);
  for (;;) {
    await compactor.compact();
    const [{ n }]: { n: string }[] = await ds.query(
      `SELECT (SELECT count(*) FROM call_count_delta) + (SELECT count(*) FROM call_user_count_delta) + (SELECT count(*) FROM lead_count_delta) AS n`,
    );
    if (Number(n) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  for (const table of ['call', 'lead', 'call_count_hour', 'call_count_day', 'call_count_total', 'call_count_delta', 'call_user_count_hour', 'call_user_count_day', 'call_user_count_total', 'call_user_count_delta']) {
    await ds.query(`VACUUM ANALYZE ${table}`);
  }
}


export async function callsListBench(): Promise<void> {
  const db = await startBenchDatabase();
  const app = await startBenchApp(db.url, { WORKERS: '0' });
  try {
    const [{ id: orderId }]: { id: number }[] = await app.ds.query(
      `INSERT INTO call_order (code, service_title, title, status) VALUES ('bench-calls', 'Bench', 'Bench', 'success') RETURNING id`,
    );
    const [{ id: sipId }]: { id: number }[] = await app.ds.query(`INSERT INTO sip_endpoint (number, title) VALUES ('+74950000001', 'Bench line') RETURNING id`);
    const userRows: { id: number }[] = await app.ds.query(
      `INSERT INTO app_user (name, email, access_group) SELECT 'Agent ' || i, 'agent' || i || '@bench.example', 'call-center' FROM generate_series(1, ${AGENTS}) i RETURNING id`,
    );
    const f: Fixture = { orderId, sipId, users: userRows.map((u) => u.id) };
    const agent = f.users[7];
    const day = 86_400_000;
    const now = Date.now();
    // Bounds off the hour, so the boundary hours are counted exactly and the rest from counters.
    const from = new Date(Math.floor((now - 90 * day) / 3_600_000) * 3_600_000 + 17 * 60_000 + 123).toISOString();
    const to = new Date(Math.floor((now - 5 * day) / 3_600_000) * 3_600_000 + 43 * 60_000 + 456).toISOString();
    const range = `createdAt[0]=${encodeURIComponent(from)}&createdAt[1]=${encodeURIComponent(to)}`;
    /** Five leads spread over the order (a customer's view of a few leads' calls). */
    const someLeads = (first: number, leads: number) => [0.1, 0.3, 0.5, 0.7, 0.9].map((x) => first + Math.floor(x * leads));
    const queries: [string, (leadIds: number[]) => string][] = [
      ['order, first page', () => `orderIds[]=${orderId}&limit=50`],
      ['order + createdAt range', () => `orderIds[]=${orderId}&${range}&limit=50`],
      ['order + statusIds=4,5', () => `orderIds[]=${orderId}&statusIds=4,5&limit=50`],
      ['leadIds (5 leads)', (ids) => `leadIds=${ids.join(',')}&limit=50`],
      ['order + userIds (1 agent)', () => `orderIds[]=${orderId}&userIds[]=${agent}&limit=50`],
      ['order + user + status + range', () => `orderIds[]=${orderId}&userIds[]=${agent}&statusIds=1,2&${range}&limit=50`],
      ['order, offset 5000', () => `orderIds[]=${orderId}&limit=50&offset=5000`],
    ];
    const run = async (leadIds: number[]) => {
      const out: Stat[] = [];
      for (const [, q] of queries) out.push(await measure(`${app.url}/v2/call/?${q(leadIds)}`, app.apiKey));
      return out;
    };

    let t0 = performance.now();
    const s = await seed(app.ds, f, SMALL);
    await compactAndAnalyze(app.ds);
    console.log(`seeded ${SMALL} calls in ${Math.round(performance.now() - t0)} ms`);
    const small = await run(someLeads(s.firstLeadId, s.leads));

    t0 = performance.now();
    await app.ds.query(`TRUNCATE lead CASCADE`);
    const l = await seed(app.ds, f, LARGE);
    await compactAndAnalyze(app.ds);
    console.log(`seeded ${LARGE} calls in ${Math.round(performance.now() - t0)} ms`);
    const largeLeads = someLeads(l.firstLeadId, l.leads);
    const large = await run(largeLeads);

    const [{ version }]: { version: string }[] = await app.ds.query(`SELECT version()`);
    console.log(`\ncalls-list on ${machine()}; ${version.split(',')[0]} (${REQUESTS} sequential requests per query, p50/p95 in ms)`);
    console.log(`${'query'.padEnd(32)} ${'10k p50'.padStart(8)} ${'1M p50'.padStart(8)} ${'ratio'.padStart(6)} ${'10k p95'.padStart(8)} ${'1M p95'.padStart(8)}  total@10k / @1M`);
    queries.forEach(([name], i) => {
      const a = small[i];
      const b = large[i];
      console.log(
        `${name.padEnd(32)} ${a.p50.toFixed(2).padStart(8)} ${b.p50.toFixed(2).padStart(8)} ${(b.p50 / a.p50).toFixed(2).padStart(6)} ` +
          `${a.p95.toFixed(2).padStart(8)} ${b.p95.toFixed(2).padStart(8)}  ${a.total} / ${b.total}`,
      );
    });

    const explain = async (title: string, sql: string, params: unknown[]) => {
      const rows: { 'QUERY PLAN': string }[] = await app.ds.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
      console.log(`\n${title}\n${rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
    };
    const repo = new CallsRepository(app.ds);
    const filters: [string, Parameters<CallsRepository['stats']>[1]][] = [
      ['order', { orderIds: [orderId] }],
      ['order + createdAt range', { orderIds: [orderId], from: new Date(from), to: new Date(to) }],
      ['order + statusIds=4,5', { orderIds: [orderId], statusIds: [4, 5] }],
      ['leadIds', { leadIds: largeLeads }],
      ['order + userIds', { orderIds: [orderId], userIds: [agent] }],
    ];
    for (const [name, filter] of filters) {
      const stats = await repo.stats(app.ds, filter);
      const q = repo.statsQuery(filter);
      await explain(`EXPLAIN total + id bounds, ${name} (total ${stats.total}, ids ${stats.minId}..${stats.maxId}):`, q.sql, q.params);
      // The page statement exactly as listPage sends it (LIMIT/OFFSET as parameters too).
      const page = pageStatement(filter, stats.minId!, stats.maxId!);
      await explain(`EXPLAIN list page, ${name}, first page:`, page.sql, page.params);
    }
    await explain('EXPLAIN plain count(*) of the order for comparison:', `SELECT count(*) FROM call WHERE order_id = ANY($1::int[])`, [[orderId]]);
  } finally {
    await app.close();
    await db.close();
  }
}

/** The statement CallsRepository.listPage runs, captured from it. */
function pageStatement(filter: Parameters<CallsRepository['listPage']>[1], minId: number, maxId: number): { sql: string; params: unknown[] } {
  let captured: { sql: string; params: unknown[] } = { sql: '', params: [] };
  const spy = { query: async (sql: string, params?: unknown[]) => ((captured = { sql, params: params ?? [] }), []) };
  void new CallsRepository(spy as unknown as DataSource).listPage(spy, filter, 0, 50, { minId, maxId });
  return captured;
}
