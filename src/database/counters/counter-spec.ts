/** What a counter set counts and how its objects are named (see counter-set.ts). */
export interface CounterSpec {
  /** Prefix of the set's tables, functions and triggers, e.g. `lead_count`. */
  name: string;
  /** The counted table. */
  table: string;
  /**
   * Counted key columns (int), in counter primary-key order: put the columns every filter
   * constrains first. A nullable column's NULL rows are not counted by the set (see `nullable`).
   */
  dimensions: readonly string[];
  /** Dimensions (or the time column) whose NULL rows the set skips: a filter on them (ids > 0) never matches NULL. */
  nullable?: readonly string[];
  /** Creation time (timestamptz) of a row: the hour and day buckets. */
  timeColumn: string;
  /** The row id (int, unique): what the id bounds bound and the update trigger joins on. */
  idColumn: string;
  /**
   * A dimension also counted as a whole (`rollupSchema`): filters that leave it open read sums
   * over its values instead of one counter row per value.
   */
  rollup?: string;
}

/** Key values to match, per dimension (absent or empty: any value). */
export interface CounterFilter {
  keys: Record<string, readonly number[] | undefined>;
  /** Inclusive bounds on the time column. */
  from?: Date | null;
  to?: Date | null;
}

/** An exact count and bounds of the counted ids (null when no bucket can hold a match). */
export interface CountStats {
  total: number;
  minId: number | null;
  maxId: number | null;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

/** Throws unless every name is a plain identifier (they are spliced into SQL) and `nullable` and `rollup` name dimensions. */
export function checkCounterSpec(spec: CounterSpec): void {
  for (const id of [spec.name, spec.table, spec.timeColumn, spec.idColumn, ...spec.dimensions]) {
    if (!IDENT.test(id)) throw new Error(`counter set ${spec.name}: bad identifier ${id}`);
  }
  // The time column may be nullable too: rows without a time are then not counted (e.g. leads with no planned call).
  for (const n of spec.nullable ?? [])
    if (!spec.dimensions.includes(n) && n !== spec.timeColumn) throw new Error(`counter set ${spec.name}: ${n} is not a dimension`);
  if (spec.rollup !== undefined && (!spec.dimensions.includes(spec.rollup) || spec.dimensions.length < 2)) {
    throw new Error(`counter set ${spec.name}: the rollup ${spec.rollup} must be one of two or more dimensions`);
  }
}

/** The dimensions as a column list: `order_id, status_id`. */
export const keyColumnList = (spec: CounterSpec): string => spec.dimensions.join(', ');

/** `GROUP BY 1, 2, ...` over the dimensions and the hour. */
export const groupByKeyAndHour = (spec: CounterSpec): string =>
  spec.dimensions
    .map((_, i) => i + 1)
    .concat(spec.dimensions.length + 1)
    .join(', ');

/** The set's function giving a row's UTC hour. */
export const hourFunction = (spec: CounterSpec): string => `${spec.name}_hour_of`;

/** Rows of the set: all of them, or those whose nullable dimensions are set (`alias.` prefixed). */
export const countedRowConditions = (spec: CounterSpec, alias = ''): string[] => (spec.nullable ?? []).map((c) => `${alias}${c} IS NOT NULL`);
