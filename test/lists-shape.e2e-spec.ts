import request from 'supertest';
import type { DataSource } from 'typeorm';
import { LeadCountersCompactor } from '../src/modules/leads/persistence/lead-counters.compactor';
import type { LeadFilter } from '../src/modules/leads/domain/lead';
import { LeadsRepository } from '../src/modules/leads/persistence/leads.repository';
import { createLeadOrder, TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Lead lists for an order whose leads lie at both ends of a long id range (a few leads, a pause while another order
 * fills the table, then more), the shape that risks a table scan per page: a page must read about one page of index
 * entries, whatever lies between, and still be exactly the rows a plain query returns.
 */
describe('lead lists whatever the ids of an order look like', () => {
  let t: TestApp;
  let filler: TestOrder;
  let paused: TestOrder;
  const FILLER = 30_000;

  /** `count` leads of `order`, statuses cycling through `statuses`, inserted as one statement (ids in a block). */
  const insertLeads = (ds: DataSource, order: TestOrder, count: number, statuses: number[]) =>
    ds.query(
      `INSERT INTO lead (order_id, phone, lead_type, status_id, utc_offset)
       SELECT $1, '+7916' || lpad(i::text, 7, '0'), 'straight', ($3::int[])[1 + i % cardinality($3::int[])], 3
       FROM generate_series(1, $2::int) AS i`,
      [order.id, count, statuses],
    );

  beforeAll(async () => {
    t = await createTestApp();
    filler = await createLeadOrder(t);
    paused = await createLeadOrder(t);
    await insertLeads(t.ds, paused, 5, [1, 10]);
    await insertLeads(t.ds, filler, FILLER, [1, 2, 3, 4, 10, 20]);
    await insertLeads(t.ds, paused, 300, [1, 2, 10, 30]);
    await t.app.get(LeadCountersCompactor).compact();
    await t.ds.query(`ANALYZE lead`);
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  async function plainIds(f: LeadFilter, offset: number, limit: number): Promise<number[]> {
    const rows: { id: number }[] = await t.ds.query(
      `SELECT id FROM lead WHERE ($1::int[] IS NULL OR order_id = ANY($1)) AND ($2::int[] IS NULL OR status_id = ANY($2))
       ORDER BY id OFFSET $3 LIMIT $4`,
      [f.orderIds ?? null, f.statusIds ?? null, offset, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Rows the page statement's scans returned or filtered out (EXPLAIN ANALYZE). */
  async function rowsTouched(f: LeadFilter, offset: number, limit: number): Promise<number> {
    const repo = t.app.get(LeadsRepository);
    const stats = await repo.stats(t.ds, f);
    let captured = { sql: '', params: [] as unknown[] };
    const spy = { query: (sql: string, params: unknown[]) => ((captured = { sql, params }), Promise.resolve([])) };
    await repo.listPage(spy, f, offset, limit, { minId: stats.minId!, maxId: stats.maxId! });
    const [{ 'QUERY PLAN': plan }]: { 'QUERY PLAN': [{ Plan: PlanNode }] }[] = await t.ds.query(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${captured.sql}`,
      captured.params,
    );
    const walk = (n: PlanNode): number =>
      (n['Node Type'].includes('Scan') ? n['Actual Rows'] * n['Actual Loops'] + (n['Rows Removed by Filter'] ?? 0) : 0) +
      (n.Plans ?? []).reduce((s, c) => s + walk(c), 0);
    return walk(plan[0].Plan);
  }

  it('reads about one page for an order at both ends of the table, with and without statuses, and returns the plain query rows', async () => {
    const cases: [LeadFilter, number][] = [
      [{ orderIds: [paused.id] }, 0],
      [{ orderIds: [paused.id] }, 100],
      [{ orderIds: [paused.id], statusIds: [10] }, 0],
      [{ orderIds: [paused.id], statusIds: [10, 30] }, 20],
      [{ orderIds: [paused.id, filler.id], statusIds: [30] }, 0],
    ];
    for (const [f, offset] of cases) {
      const q = [`orderIds=${f.orderIds!.join(',')}`, ...(f.statusIds ? [`statusIds=${f.statusIds.join(',')}`] : []), `offset=${offset}`, 'limit=100'];
      const res = await request(t.http)
        .get(`/v2/lead/?${q.join('&')}`)
        .set('X-Api-Key', t.apiKey)
        .expect(200);
      expect({ f, offset, ids: res.body.data.list.map((l: { id: number }) => l.id) }).toEqual({ f, offset, ids: await plainIds(f, offset, 100) });
      // A few pages' worth (index entries, the rows fetched, their orders): far below the 30,000 leads between the two ends.
      expect({ f, offset, touched: (await rowsTouched(f, offset, 100)) < 10 * (offset + 100) }).toEqual({ f, offset, touched: true });
    }
  });

  it('returns the plain query rows when orders x statuses are too many to read one by one', async () => {
    const statusIds = Array.from({ length: 40 }, (_, i) => i + 1);
    const f: LeadFilter = { orderIds: [paused.id, filler.id], statusIds };
    const res = await request(t.http)
      .get(`/v2/lead/?orderIds=${f.orderIds!.join(',')}&statusIds=${statusIds.join(',')}&offset=3&limit=50`)
      .set('X-Api-Key', t.apiKey)
      .expect(200);
    expect(res.body.data.list.map((l: { id: number }) => l.id)).toEqual(await plainIds(f, 3, 50));
  });
});

interface PlanNode {
  'Node Type': string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}
