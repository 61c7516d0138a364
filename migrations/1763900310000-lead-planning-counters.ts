import { MigrationInterface, QueryRunner } from 'typeorm';
import { LEAD_PLANNING_COUNTERS } from '../src/modules/leads/persistence/lead-planning-counters';

/**
 * Counters of planned calls per order and hour (issue 14, order stats): see lead-planning-counters.ts.
 * Day counters carry their counts in the primary key (as 1763864300000 does for the other sets).
 */
export class LeadPlanningCounters1763900310000 implements MigrationInterface {
  name = 'LeadPlanningCounters1763900310000';

  async up(q: QueryRunner): Promise<void> {
    const set = LEAD_PLANNING_COUNTERS;
    for (const sql of set.schema()) await q.query(sql);
    await q.query(set.backfill());
    const table = `${set.spec.name}_day`;
    await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey`);
    await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_pkey PRIMARY KEY (${set.spec.dimensions.join(', ')}, day) INCLUDE (n, min_id, max_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of LEAD_PLANNING_COUNTERS.dropSchema()) await q.query(sql);
  }
}
