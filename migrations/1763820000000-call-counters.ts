import { MigrationInterface, QueryRunner } from 'typeorm';
import { CALL_COUNTERS, CALL_USER_COUNTERS } from '../src/modules/calls/persistence/call-counters';

/**
 * Counters for the exact `total` of `GET /v2/call/` at millions of calls (PRODUCT.md "Lists"):
 * calls per (order, status) and per (order, user, status), each per UTC hour and day and for all
 * time, kept by statement triggers and folded by CallCountersCompactor (src/database/counters).
 * Calls already stored are counted as deltas in the same transaction (creating the triggers
 * locks writers out until it commits). The boundary hours of a createdAt range are counted
 * exactly per order: (order_id, created_at) reads only the order's calls of those hours.
 */
export class CallCounters1763820000000 implements MigrationInterface {
  name = 'CallCounters1763820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX call_order_created_idx ON call (order_id, created_at)`);
    for (const set of [CALL_COUNTERS, CALL_USER_COUNTERS]) {
      for (const sql of set.schema()) await q.query(sql);
      await q.query(set.backfill());
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const set of [CALL_USER_COUNTERS, CALL_COUNTERS]) for (const sql of set.dropSchema()) await q.query(sql);
    await q.query(`DROP INDEX call_order_created_idx`);
  }
}
