import { MigrationInterface, QueryRunner } from 'typeorm';

/** Name and definition of each index. */
const INDEXES: [string, string][] = [
  ['lead_order_status_id_idx', 'lead (order_id, status_id, id)'],
  ['call_order_user_id_idx', 'call (order_id, user_id, id)'],
];

/**
 * Lists read their page per key combination (pageIdsQuery): lead lists filtered by order and
 * status per (order, status), call lists filtered by agent per (order, agent). An index leading
 * with the keys and ending with the id gives each combination its rows in id order, so a rare
 * status of a huge order, or one agent's calls in it, cost one page of index entries instead of
 * a scan of the order's rows for them.
 *
 * Built CONCURRENTLY (outside a transaction), so a large lead table keeps taking writes meanwhile;
 * an invalid index left by an interrupted build is dropped and built again.
 */
export class ListIndexes1763864100000 implements MigrationInterface {
  name = 'ListIndexes1763864100000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (const [index, definition] of INDEXES) {
      await rebuildInvalid(q, index);
      await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${index} ON ${definition}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [index] of INDEXES) await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
  }
}

async function rebuildInvalid(q: QueryRunner, index: string): Promise<void> {
  const rows = (await q.query(`SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1 AND NOT i.indisvalid`, [
    index,
  ])) as unknown[];
  if (rows.length) await q.query(`DROP INDEX CONCURRENTLY ${index}`);
}
