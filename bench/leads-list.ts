import { DataSource } from 'typeorm';
import { measure, REQUESTS, Stat } from './support/latency';
import { LeadsRepository } from '../src/modules/leads/persistence/leads.repository';
import { machine, startBenchApp, startBenchDatabase } from './support/bench-app';

/**
 * PRODUCT.md "Lists": a lead list page, exact `total` included, must stay within 1.5x of its
 * 10k-row latency at 1M rows. Seeds one order with 10k leads (created over the past year), measures
 * list pages with several filters, grows the order to 1M leads with the same distribution and
 * measures again. Prints p50/p95 per query and the 1M/10k ratio, then EXPLAIN of the page and
 * count queries on the big table. `npm run bench -- leads-list` (about a minute).
 *
 * Last run (2 vCPU Xeon 2.1 GHz, embedded PostgreSQL 18), p50 ms at 10k -> 1M:
 *   order, first page            4.60 -> 3.37  (0.73x)
 *   order + statusIds=1,2        3.73 -> 3.70  (0.99x)
 *   order + createdAt range      4.28 -> 4.65  (1.09x)   without the counters' id bounds: 200 ms
 *   order + status + createdAt   3.93 -> 4.17  (1.06x)
 *   no filters                   2.96 -> 3.14  (1.06x)
 *   order, offset 5000           5.78 -> 6.14  (1.06x)
 * A plain count(*) of the order's 1M leads takes ~125 ms; the counters answer in 0.3-2.7 ms.
 */

const SMALL = 10_000;
const LARGE = 1_000_000;
const CHUNK = 200_000;

async function seed(ds: DataSource, orderId: number, count: number): Promise<void> {
  for (let start = 0; start < count; start += CHUNK) {
    const end = Math.min(count, start + CHUNK);
    // Status mix of a working campaign; creation times spread evenly over the past year, in id order.
    await ds.query(
      `INSERT INTO lead (order_id, phone, lead_type, status_id, utc_offset, source, planning_call_at, created_at, updated_at)
       SELECT $1, '+7916' || lpad(i::text, 7, '0'), 'straight',
              (ARRAY[1,1,1,1,2,2,3,4,4,10,11,20,21,22,30])[1 + (i::bigint * 7919) % 15], 3, 'organic',
              now() + make_interval(hours => i % 48),
              now() - make_interval(secs => (($4 - i)::double precision / $4) * 365 * 86400),
              now() - make_interval(secs => (($4 - i)::double precision / $4) * 365 * 86400)
       FROM generate_series($2::int, $3::int - 1) AS i`,
      [orderId, start, end, count],
    );
  }
}

async function compactAndAnalyze(ds: DataSource): Promise<void> {
  const repo = new LeadsRepository(ds);
  while ((await repo.compactCounters(50_000)) > 0);
  await ds.query(`VACUUM ANALYZE lead`);
  await ds.query(`VACUUM ANALYZE lead_count_hour`);
  await ds.query(`VACUUM ANALYZE lead_count_total`);
  await ds.query(`VACUUM ANALYZE lead_count_delta`);
}


export async function leadsListBench(): Promise<void> {
  const db = await startBenchDatabase();
  const app = await startBenchApp(db.url, { WORKERS: '0' });
  try {
    const [{ id: orderId }]: { id: number }[] = await app.ds.query(
      `INSERT INTO call_order (code, service_title, title, status) VALUES ('bench-leads', 'Bench', 'Bench', 'success') RETURNING id`,
    );
    const day = 86_400_000;
    const now = Date.now();
    // Bounds off the hour, so the boundary hours are counted exactly and the rest from counters.
    const from = new Date(Math.floor((now - 90 * day) / 3_600_000) * 3_600_000 + 17 * 60_000 + 123).toISOString();
    const to = new Date(Math.floor((now - 5 * day) / 3_600_000) * 3_600_000 + 43 * 60_000 + 456).toISOString();
    const queries: [string, string][] = [
      ['order, first page', `orderIds[]=${orderId}&limit=50`],
      ['order + statusIds=1,2', `orderIds[]=${orderId}&statusIds=1,2&limit=50`],
      ['order + createdAt range', `orderIds[]=${orderId}&createdAt[0]=${encodeURIComponent(from)}&createdAt[1]=${encodeURIComponent(to)}&limit=50`],
      ['order + status + createdAt', `orderIds[]=${orderId}&statusIds[]=10&createdAt[0]=${encodeURIComponent(from)}&createdAt[1]=${encodeURIComponent(to)}&limit=50`],
      ['no filters', `limit=50`],
      ['order, offset 5000', `orderIds[]=${orderId}&limit=50&offset=5000`],
    ];
    const run = async () => {
      const out: Stat[] = [];
      for (const [, q] of queries) out.push(await measure(`${app.url}/v2/lead/?${q}`, app.apiKey));
      return out;
    };

    let t0 = performance.now();
    await seed(app.ds, orderId, SMALL);
    await compactAndAnalyze(app.ds);
    console.log(`seeded ${SMALL} leads in ${Math.round(performance.now() - t0)} ms`);
    const small = await run();

    t0 = performance.now();
    await app.ds.query(`TRUNCATE lead CASCADE`);
    await seed(app.ds, orderId, LARGE);
    await compactAndAnalyze(app.ds);
    console.log(`seeded ${LARGE} leads in ${Math.round(performance.now() - t0)} ms`);
    const large = await run();

    const exact: { n: number }[] = await app.ds.query(`SELECT count(*)::int AS n FROM lead WHERE order_id = $1`, [orderId]);
    console.log(`\nleads-list on ${machine()} (${REQUESTS} sequential requests per query, p50/p95 in ms)`);
    console.log(`${'query'.padEnd(30)} ${'10k p50'.padStart(8)} ${'1M p50'.padStart(8)} ${'ratio'.padStart(6)} ${'10k p95'.padStart(8)} ${'1M p95'.padStart(8)}  total@1M`);
    queries.forEach(([name], i) => {
      const s = small[i];
      const l = large[i];
      console.log(
        `${name.padEnd(30)} ${s.p50.toFixed(2).padStart(8)} ${l.p50.toFixed(2).padStart(8)} ${(l.p50 / s.p50).toFixed(2).padStart(6)} ` +
          `${s.p95.toFixed(2).padStart(8)} ${l.p95.toFixed(2).padStart(8)}  ${l.total}`,
      );
    });
    console.log(`(exact count(*) of the order: ${exact[0].n})`);

    const explain = async (title: string, sql: string, params: unknown[]) => {
      const rows: { 'QUERY PLAN': string }[] = await app.ds.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
      console.log(`\n${title}\n${rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
    };
    const repo = new LeadsRepository(app.ds);
    const page = `SELECT l.*, o.code FROM lead l JOIN call_order o ON o.id = l.order_id`;
    const plain = await repo.stats(app.ds, { orderIds: [orderId] });
    await explain(
      `EXPLAIN list page, order filter, first page (ids ${plain.minId}..${plain.maxId} from the counters):`,
      `${page} WHERE l.order_id = ANY($1::int[]) AND l.id >= $2 AND l.id <= $3 ORDER BY l.id LIMIT 50 OFFSET 0`,
      [[orderId], plain.minId, plain.maxId],
    );
    const ranged = await repo.stats(app.ds, { orderIds: [orderId], createdFrom: new Date(from), createdTo: new Date(to) });
    await explain(
      `EXPLAIN list page, order + createdAt range (ids ${ranged.minId}..${ranged.maxId} from the counters):`,
      `${page} WHERE l.order_id = ANY($1::int[]) AND l.created_at >= $2 AND l.created_at <= $3 AND l.id >= $4 AND l.id <= $5
       ORDER BY l.id LIMIT 50 OFFSET 0`,
      [[orderId], from, to, ranged.minId, ranged.maxId],
    );
    await explain(
      'EXPLAIN the same page without the id bounds (what the counters save):',
      `${page} WHERE l.order_id = ANY($1::int[]) AND l.created_at >= $2 AND l.created_at <= $3 ORDER BY l.id LIMIT 50 OFFSET 0`,
      [[orderId], from, to],
    );
    const rangedStats = repo.statsQuery({ orderIds: [orderId], createdFrom: new Date(from), createdTo: new Date(to) });
    await explain(
      'EXPLAIN total + id bounds, order + createdAt range (whole days, edge hours, exact boundary hours):',
      rangedStats.sql,
      rangedStats.params,
    );
    const plainStats = repo.statsQuery({ orderIds: [orderId] });
    await explain('EXPLAIN total + id bounds, order filter only (all-time counters):', plainStats.sql, plainStats.params);
    await explain('EXPLAIN plain count(*) for comparison:', `SELECT count(*) FROM lead WHERE order_id = ANY($1::int[])`, [[orderId]]);
  } finally {
    await app.close();
    await db.close();
  }
}
