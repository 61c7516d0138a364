import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The duplicate lookup of a create (lead_create: the highest id among the order's leads with this
 * phone in the window) through (order_id, phone, id): the index gives the phone's leads in id order,
 * so the lookup reads one entry backwards from the newest. With (order_id, phone, created_at DESC)
 * it had to sort, and on statistics taken while the table was small the planner preferred walking
 * the order's (order_id, id) index backwards filtering on the phone, and kept that plan (PL/pgSQL
 * caches it per connection): 3-9 ms per create, growing with the order, in the lead-create bench.
 * The window (created_at) is checked on the few rows of the phone. Built CONCURRENTLY.
 */
export class LeadPhoneIndex1763864400000 implements MigrationInterface {
  name = 'LeadPhoneIndex1763864400000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await dropIfInvalid(q, 'lead_order_phone_id_idx');
    await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS lead_order_phone_id_idx ON lead (order_id, phone, id)`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS lead_order_phone_created_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS lead_order_phone_created_idx ON lead (order_id, phone, created_at DESC)`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS lead_order_phone_id_idx`);
  }
}

/** An index an interrupted CONCURRENTLY build left invalid is dropped, to be built again. */
async function dropIfInvalid(q: QueryRunner, index: string): Promise<void> {
  const rows = (await q.query(`SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1 AND NOT i.indisvalid`, [
    index,
  ])) as unknown[];
  if (rows.length) await q.query(`DROP INDEX CONCURRENTLY ${index}`);
}
