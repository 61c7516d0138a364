import { MigrationInterface, QueryRunner } from 'typeorm';
import { CALL_COUNTERS, CALL_USER_COUNTERS } from '../src/modules/calls/persistence/call-counters';
import { LEAD_COUNTERS } from '../src/modules/leads/persistence/lead-counters';

/**
 * The day counters' primary keys carry the counts (INCLUDE n, min_id, max_id), so a createdAt
 * range of many days sums them with an index-only scan: the rows of one key are adjacent in the
 * index, whereas the table holds them wherever the compactor first wrote each day. A small order
 * over 146 days at 1M leads: 1,204 day rows read from ~10 index pages instead of ~1,000 heap pages
 * (1.0 -> 0.5 ms on the development machine). The tables are small (one row per key and day).
 */
export class CoveringDayCounters1763864300000 implements MigrationInterface {
  name = 'CoveringDayCounters1763864300000';

  async up(q: QueryRunner): Promise<void> {
    for (const set of [LEAD_COUNTERS, CALL_COUNTERS, CALL_USER_COUNTERS]) {
      const table = `${set.spec.name}_day`;
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey`);
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_pkey PRIMARY KEY (${set.spec.dimensions.join(', ')}, day) INCLUDE (n, min_id, max_id)`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const set of [LEAD_COUNTERS, CALL_COUNTERS, CALL_USER_COUNTERS]) {
      const table = `${set.spec.name}_day`;
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey`);
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_pkey PRIMARY KEY (${set.spec.dimensions.join(', ')}, day)`);
    }
  }
}
