import { COMPACT_BATCH } from '../../../database/counters/counter-compactor';
import type { CounterFilter, CounterSet } from '../../../database/counters/counter-set';
import { built, sent, SqlCapture } from '../../../database/sql-snapshot/sql-capture';
import { describeInputs } from './inputs';

/**
 * What a counter set generates but its counts: the DDL its migrations run (`schema`, `backfill`,
 * the rollups when it has some, the row triggers, and their `down`), then the compactor's statements.
 */
export function counterSetStatements(label: string, set: CounterSet): SqlCapture[] {
  const withRollup = set.spec.rollup !== undefined;
  return [
    built({ fn: 'CounterSet.schema', note: 'migration up', inputs: label }, () => set.schema()),
    built({ fn: 'CounterSet.backfill', note: 'migration up, after schema', inputs: label }, () => set.backfill()),
    ...(withRollup ? [built({ fn: 'CounterSet.rollupSchema', note: 'migration up, after schema', inputs: label }, () => set.rollupSchema())] : []),
    ...(withRollup ? [built({ fn: 'CounterSet.dropRollupSchema', note: 'migration down', inputs: label }, () => set.dropRollupSchema())] : []),
    built({ fn: 'CounterSet.dropSchema', note: 'migration down', inputs: label }, () => set.dropSchema()),
    built({ fn: 'CounterSet.rowTriggers', note: 'migration up, after schema: row triggers for the statement triggers', inputs: label }, () =>
      set.rowTriggers(),
    ),
    built({ fn: 'CounterSet.statementTriggers', note: 'migration down of rowTriggers', inputs: label }, () => set.statementTriggers()),
    sent(
      { fn: 'CounterSet.compact', note: 'the compactor, when it gets the lock', inputs: `${label}, batch: COMPACT_BATCH (${COMPACT_BATCH})` },
      (db) => set.compact(db.asDataSource(), COMPACT_BATCH),
      (sql) => (sql.includes('pg_try_advisory_xact_lock') ? [{ locked: true }] : [{ moved: 0 }]),
    ),
  ];
}

/** A count as a service asks the set directly for it (`label` names the set's constant). */
export function counterStats(label: string, set: CounterSet, note: string, filter: CounterFilter): SqlCapture {
  return sent({ fn: `${label}.stats`, note, inputs: describeInputs({ ...filter }) }, (db) => set.stats(db, filter));
}
