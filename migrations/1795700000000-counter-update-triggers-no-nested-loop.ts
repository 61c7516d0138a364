import { MigrationInterface, QueryRunner } from 'typeorm';
import { CALL_COUNTERS, CALL_USER_COUNTERS } from '../src/modules/calls/persistence/call-counters';
import { LEAD_COUNTERS } from '../src/modules/leads/persistence/lead-counters';
import { LEAD_PLANNING_COUNTERS } from '../src/modules/leads/persistence/lead-planning-counters';

const SETS = [LEAD_COUNTERS, LEAD_PLANNING_COUNTERS, CALL_COUNTERS, CALL_USER_COUNTERS];

/**
 * The counters' update triggers never join their transition tables in a nested loop (statement-triggers.ts, JoinPlanning): a plan
 * PL/pgSQL cached for a one-row update made a 10,000-row update take seconds, past the statement timeout.
 */
export class CounterUpdateTriggersNoNestedLoop1795700000000 implements MigrationInterface {
  name = 'CounterUpdateTriggersNoNestedLoop1795700000000';

  async up(q: QueryRunner): Promise<void> {
    for (const set of SETS) for (const sql of set.updateTriggerFunctions('no-nested-loop')) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const set of SETS) for (const sql of set.updateTriggerFunctions('any')) await q.query(sql);
  }
}
