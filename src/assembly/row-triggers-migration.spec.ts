import type { QueryRunner } from 'typeorm';
import { RowTriggers1795800000000 } from '../../migrations/1795800000000-row-triggers';
import { CALL_COUNTERS, CALL_USER_COUNTERS } from '../modules/calls/persistence/call-counters';
import { LEAD_COUNTERS } from '../modules/leads/persistence/lead-counters';
import { LEAD_PLANNING_COUNTERS } from '../modules/leads/persistence/lead-planning-counters';

const norm = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/** The SQL a migration runs, captured without a database. */
async function migrationSql(run: (q: QueryRunner) => Promise<void>): Promise<string[]> {
  const sql: string[] = [];
  await run({ query: (s: string) => Promise.resolve(void sql.push(s)) } as unknown as QueryRunner);
  return sql.map(norm);
}

/** The counter sets' row triggers as the migration froze them (the generator lives in src/database/counters/row-triggers.ts). */
describe('the row-triggers migration', () => {
  it('generates exactly the row triggers of the row-triggers migration, and its down the statement triggers back', async () => {
    const migration = new RowTriggers1795800000000();
    const sets = [LEAD_COUNTERS, LEAD_PLANNING_COUNTERS, CALL_COUNTERS, CALL_USER_COUNTERS];
    const counterSql = (sql: string[]) => sql.filter((s) => !/event_(lead|call)_ins|event_on_(lead|call)_insert/.test(s));
    expect(counterSql(await migrationSql((q) => migration.up(q)))).toEqual(sets.flatMap((set) => set.rowTriggers()).map(norm));
    expect(counterSql(await migrationSql((q) => migration.down(q)))).toEqual(sets.flatMap((set) => set.statementTriggers('no-nested-loop')).map(norm));
    const planning = LEAD_PLANNING_COUNTERS.rowTriggers().map(norm);
    expect(planning).toContain(
      'CREATE TRIGGER lead_planning_count_upd AFTER UPDATE ON lead FOR EACH ROW WHEN ((OLD.order_id, OLD.planning_call_at) IS DISTINCT FROM (NEW.order_id, NEW.planning_call_at)) EXECUTE FUNCTION lead_planning_count_on_update()',
    );
    expect(planning).toContain(
      'CREATE TRIGGER lead_planning_count_ins AFTER INSERT ON lead FOR EACH ROW WHEN (NEW.planning_call_at IS NOT NULL) EXECUTE FUNCTION lead_planning_count_on_insert()',
    );
  });
});
