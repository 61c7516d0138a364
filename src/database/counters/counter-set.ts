import { DataSource } from 'typeorm';
import type { Queryable } from '../read-database';
import { SqlParams } from '../sql-params';
import { compact } from './compaction';
import { counterBackfill, counterSchema, dropCounterSchema, updateTriggerFunction } from './counter-schema';
import { checkCounterSpec, CounterFilter, CounterSpec, CountStats } from './counter-spec';
import { rowCounterTriggers, statementCounterTriggers } from './row-triggers';
import { dropRollupSchema, rollupSchema, rollupUpdateFunctions } from './rollup-schema';
import type { JoinPlanning } from './statement-triggers';
import { keyConditions, statsQuery } from './stats-query';

export type { CounterFilter, CounterSpec, CountStats } from './counter-spec';

/**
 * Exact, cheap `total`s of filtered lists over a large table (PRODUCT.md "Lists"): the rows of one
 * table counted per key (the dimensions) and UTC hour, day and all time, with bounds of their ids
 * that confine a page query (counted-page.ts). The SQL of each set is in its module's `.sql` snapshot.
 */
export class CounterSet {
  readonly spec: CounterSpec;

  constructor(spec: CounterSpec) {
    checkCounterSpec(spec);
    this.spec = spec;
  }

  /**
   * Migration `up`: the counters and the statement triggers appending deltas to them. A migration
   * keeps the SQL these generators rendered as text, so changing a spec or a generator changes no
   * migration that has run: the live schema follows only through a new migration (`any`: the
   * update function joining freely, see updateTriggerFunctions).
   */
  schema(planning: JoinPlanning = 'no-nested-loop'): string[] {
    return counterSchema(this.spec, planning);
  }

  /** Migration `up`, after `schema()` in the same transaction: the rows already in the table, as deltas. */
  backfill(): string {
    return counterBackfill(this.spec);
  }

  /** Migration `up`, after `schema()`: the counters summed over the `rollup` dimension (rollup-schema.ts). */
  rollupSchema(): string[] {
    return rollupSchema(this.spec);
  }

  /** Migration `down` of `rollupSchema()`. */
  dropRollupSchema(): string[] {
    return dropRollupSchema(this.spec);
  }

  /** A migration replacing the update trigger functions of the set and its rollup (they join transition tables), joining as said. */
  updateTriggerFunctions(planning: JoinPlanning): string[] {
    return [updateTriggerFunction(this.spec, planning, true), ...(this.spec.rollup === undefined ? [] : rollupUpdateFunctions(this.spec, planning))];
  }

  /**
   * A migration replacing the set's statement triggers (insert, update, delete) by row triggers writing the same deltas
   * (row-triggers.ts). New sets are made by `schema()` and then this, in the same migration.
   */
  rowTriggers(): string[] {
    return rowCounterTriggers(this.spec);
  }

  /** Migration `down` of `rowTriggers()`: the statement triggers back, their update function joining as said. */
  statementTriggers(planning: JoinPlanning = 'no-nested-loop'): string[] {
    return statementCounterTriggers(this.spec, planning);
  }

  /** Migration `down` of `schema()`. */
  dropSchema(): string[] {
    return dropCounterSchema(this.spec);
  }

  /** Key conditions, on the counters or (with `alias`) on the counted table. */
  keyConditions(p: SqlParams, filter: CounterFilter, alias = ''): string[] {
    return keyConditions(this.spec, p, filter, alias);
  }

  /** The exact count of matching rows and bounds of their ids, in one statement (one snapshot). */
  async stats(db: Queryable, filter: CounterFilter): Promise<CountStats> {
    const { sql, params } = this.statsQuery(filter);
    const rows = (await db.query(sql, params)) as { n: string; lo: number | null; hi: number | null }[];
    return { total: Number(rows[0].n), minId: rows[0].lo, maxId: rows[0].hi };
  }

  /** The statement behind `stats` (stats-query.ts). */
  statsQuery(filter: CounterFilter): { sql: string; params: unknown[] } {
    return statsQuery(this.spec, filter);
  }

  /** Folds up to `batch` deltas into the counters (compaction.ts); 0 when another instance is compacting this set. */
  compact(ds: DataSource, batch: number): Promise<number> {
    return compact(ds, this.spec, batch);
  }
}
