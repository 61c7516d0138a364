import { DataSource } from 'typeorm';
import { COMPACT_BATCH } from '../src/database/counters/counter-compactor';
import { dataSourceOptions } from '../src/assembly/data-source';
import { LEAD_COUNTERS } from '../src/modules/leads/persistence/lead-counters';
import { LEAD_PLANNING_COUNTERS } from '../src/modules/leads/persistence/lead-planning-counters';
import { createTestDatabase } from './support/test-db';

const LEADS = 20_000;
const HOUR = 3_600_000;

/**
 * On one connection a one-row update comes first, then an update of 20,000 rows, both moving rows between counters: the
 * trigger plans PL/pgSQL keeps from the first must suit the second (a quadratic plan would take minutes). The statement
 * timeout turns the slow case into a failure; the counts after it must be exact.
 */
describe('counter triggers: a bulk update after a one-row update on the same connection', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let orderId: number;

  const compactAll = async () => {
    for (const set of [LEAD_COUNTERS, LEAD_PLANNING_COUNTERS]) while ((await set.compact(ds, COMPACT_BATCH)) === COMPACT_BATCH);
  };
  const countOf = async (sql: string, params: unknown[]) => Number((await ds.query<{ n: string }[]>(sql, params))[0].n);

  beforeAll(async () => {
    db = await createTestDatabase();
    // One connection: every statement below shares the PL/pgSQL plan cache of the triggers.
    ds = await new DataSource(dataSourceOptions(db.url, { logging: ['error'], extra: { max: 1 } })).initialize();
    await ds.query(`SET statement_timeout = '20s'`);
    const rows = await ds.query<{ id: number }[]>(
      `INSERT INTO call_order (code, service_title, title, status) VALUES ('bulk-update', 'Bulk', 'Bulk', 'success') RETURNING id`,
    );
    orderId = rows[0].id;
    // One lead an hour over the past 20,000 hours, each planned within the next 48 hours: as many counter rows as leads.
    await ds.query(
      `INSERT INTO lead (order_id, phone, lead_type, status_id, utc_offset, source, planning_call_at, created_at, updated_at)
       SELECT $1, '+7916' || lpad(g::text, 7, '0'), 'straight', 1, 3, 'organic', now() + make_interval(mins => g % 2880),
              now() - make_interval(hours => g), now()
       FROM generate_series(1, $2::int) g`,
      [orderId, LEADS],
    );
    await compactAll();
  }, 120_000);

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('moves every lead in both counter sets within the timeout, and the counts stay exact', async () => {
    // The one-row statements: each update trigger and each rollup update trigger runs once on this connection with one row.
    await ds.query(`UPDATE lead SET status_id = 2, planning_call_at = planning_call_at + interval '1 hour' WHERE id = (SELECT min(id) FROM lead)`);
    await compactAll();

    await ds.query(`UPDATE lead SET status_id = 3, planning_call_at = planning_call_at + interval '2 hours' WHERE order_id = $1`, [orderId]);
    await compactAll();

    const byStatus = await LEAD_COUNTERS.stats(ds, { keys: { status_id: [3] } });
    expect(byStatus.total).toBe(await countOf(`SELECT count(*) AS n FROM lead WHERE status_id = 3`, []));
    expect(byStatus.total).toBe(LEADS);
    expect((await LEAD_COUNTERS.stats(ds, { keys: { status_id: [1, 2] } })).total).toBe(0);
    const from = new Date(Date.now() + 24 * HOUR);
    const planned = await LEAD_PLANNING_COUNTERS.stats(ds, { keys: { order_id: [orderId] }, from });
    expect(planned.total).toBe(await countOf(`SELECT count(*) AS n FROM lead WHERE order_id = $1 AND planning_call_at >= $2`, [orderId, from]));
    expect(planned.total).toBeGreaterThan(LEADS / 3);
  }, 120_000);
});
