import { MigrationInterface, QueryRunner } from 'typeorm';
import { CALL_COUNTERS, CALL_USER_COUNTERS } from '../src/modules/calls/persistence/call-counters';
import { LEAD_COUNTERS } from '../src/modules/leads/persistence/lead-counters';
import { LEAD_PLANNING_COUNTERS } from '../src/modules/leads/persistence/lead-planning-counters';

const SETS = [LEAD_COUNTERS, LEAD_PLANNING_COUNTERS, CALL_COUNTERS, CALL_USER_COUNTERS];

/**
 * The counters' update triggers join their transition tables in a statement planned for each call (EXECUTE): a plan PL/pgSQL cached
 * for a one-row update made a 10,000-row update join in quadratic time (seconds, past the statement timeout).
 */
export class CounterUpdateTriggersPlannedPerStatement1795700000000 implements MigrationInterface {
  name = 'CounterUpdateTriggersPlannedPerStatement1795700000000';

  async up(q: QueryRunner): Promise<void> {
    for (const set of SETS) for (const sql of set.updateTriggerFunctions('per-statement')) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const set of SETS) for (const sql of set.updateTriggerFunctions('cached')) await q.query(sql);
  }
}
