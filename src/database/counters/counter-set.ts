import { DataSource } from 'typeorm';
import { BucketRange, hourOf, planCount } from './count-plan';
import { SqlParams, whereOf } from '../sql-params';
import type { Queryable } from '../read-database';

/**
 * Exact, cheap `total`s of filtered lists over a large table (PRODUCT.md "Lists").
 *
 * A counter set counts the rows of one table per key (a few int columns, the "dimensions", e.g.
 * order and status) for each UTC hour and UTC day of the rows' creation time, and for all time.
 * Writers never update a shared row: statement triggers (with transition tables) append one delta
 * row per key and hour a statement touched, so bursts of inserts take no common lock. A compactor
 * folds the deltas into `<name>_hour`, `<name>_day` and `<name>_total` in one transaction, so every
 * snapshot sees each row counted exactly once (in a delta or in the rollups); a total reads both.
 *
 * Each counter row also keeps bounds of the ids it has counted (`min_id`..`max_id`, widened as
 * rows arrive, reset when the bucket empties): every row of the bucket lies inside them, so a list
 * page can be confined to that id range (counted-page.ts) and read ~one page of an id index even
 * when a createdAt range or a rare key sits at the far end of a huge table.
 *
 * `schema()` is migration DDL: a set's spec and this generator define a schema that has run, so
 * changing either needs a new migration (counter-set.spec.ts pins the output to the leads migration).
 */
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

export class CounterSet {
  readonly spec: CounterSpec;

  constructor(spec: CounterSpec) {
    for (const id of [spec.name, spec.table, spec.timeColumn, spec.idColumn, ...spec.dimensions]) {
      if (!IDENT.test(id)) throw new Error(`counter set ${spec.name}: bad identifier ${id}`);
    }
    // The time column may be nullable too: rows without a time are then not counted (e.g. leads with no planned call).
    for (const n of spec.nullable ?? [])
      if (!spec.dimensions.includes(n) && n !== spec.timeColumn) throw new Error(`counter set ${spec.name}: ${n} is not a dimension`);
    if (spec.rollup !== undefined && (!spec.dimensions.includes(spec.rollup) || spec.dimensions.length < 2)) {
      throw new Error(`counter set ${spec.name}: the rollup ${spec.rollup} must be one of two or more dimensions`);
    }
    this.spec = spec;
  }

  private get dims(): string {
    return this.spec.dimensions.join(', ');
  }

  /** `GROUP BY 1, 2, ...` over the dimensions and the hour. */
  private get groupByKeyAndHour(): string {
    return this.spec.dimensions
      .map((_, i) => i + 1)
      .concat(this.spec.dimensions.length + 1)
      .join(', ');
  }

  private get hourOf(): string {
    return `${this.spec.name}_hour_of`;
  }

  /** Rows of the set: all of them, or those whose nullable dimensions are set (`alias.` prefixed). */
  private counted(alias = ''): string[] {
    return (this.spec.nullable ?? []).map((c) => `${alias}${c} IS NOT NULL`);
  }

  /** The advisory lock that lets one compactor at a time fold this set. */
  private get lockKey(): string {
    return `${this.spec.name.replace(/_/g, '-')}-compact`;
  }

  // ---- schema -----------------------------------------------------------------------------

  /** DDL creating the counters, their triggers on the table and the UTC hour function (migration `up`). */
  schema(): string[] {
    const { name, table, timeColumn: ts, idColumn: id, dimensions } = this.spec;
    const keyCols = dimensions.map((d) => `${d} int NOT NULL,`).join('\n        ');
    const rollup = (bucket: string | null, n: string, pk: string) => `
      CREATE TABLE ${name}_${bucket ?? 'total'} (
        ${keyCols}${bucket ? `\n        ${bucket} timestamptz NOT NULL,` : ''}
        n ${n} NOT NULL,
        min_id int,
        max_id int,
        ${pk}
      )`;
    const dims = this.dims;
    const o = (alias: string) => dimensions.map((d) => `${alias}.${d}`).join(', ');
    const changed = `(${o('o')}, o.${ts}) IS DISTINCT FROM (${o('w')}, w.${ts})`;
    const andCounted = (alias: string) =>
      this.counted(`${alias}.`)
        .map((c) => ` AND ${c}`)
        .join('');
    const whereCounted = this.counted().length ? ` WHERE ${this.counted().join(' AND ')}` : '';
    return [
      `
      CREATE TABLE ${name}_delta (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        ${keyCols}
        hour timestamptz NOT NULL,
        n int NOT NULL,
        min_id int,
        max_id int
      )`,
      rollup('hour', 'bigint', `PRIMARY KEY (${dims}, hour)`),
      `CREATE INDEX ${name}_hour_hour_idx ON ${name}_hour (hour)`,
      rollup('day', 'bigint', `PRIMARY KEY (${dims}, day)`),
      `CREATE INDEX ${name}_day_day_idx ON ${name}_day (day)`,
      rollup(null, 'bigint', `PRIMARY KEY (${dims})`),
      // The hour of a row in UTC, whatever the session's TimeZone (date_trunc on timestamptz uses it).
      `
      CREATE FUNCTION ${this.hourOf}(ts timestamptz) RETURNS timestamptz
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT date_trunc('hour', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $$`,
      `
      CREATE FUNCTION ${name}_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ${name}_delta (${dims}, hour, n, min_id, max_id)
        SELECT ${dims}, ${this.hourOf}(${ts}), count(*), min(${id}), max(${id}) FROM new_rows${whereCounted} GROUP BY ${this.groupByKeyAndHour};
        RETURN NULL;
      END $$`,
      `
      CREATE FUNCTION ${name}_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ${name}_delta (${dims}, hour, n)
        SELECT ${dims}, ${this.hourOf}(${ts}), -count(*) FROM old_rows${whereCounted} GROUP BY ${this.groupByKeyAndHour};
        RETURN NULL;
      END $$`,
      // Only rows whose counted key changed produce deltas; other updates add nothing.
      // No HAVING sum(n) <> 0: two rows swapping keys net to 0 but still widen the id bounds.
      `
      CREATE FUNCTION ${name}_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ${name}_delta (${dims}, hour, n, min_id, max_id)
        SELECT ${dims}, hour, sum(n)::int, min(id), max(id) FROM (
          SELECT ${o('o')}, ${this.hourOf}(o.${ts}) AS hour, -1 AS n, NULL::int AS id
            FROM old_rows o JOIN new_rows w ON w.${id} = o.${id}
           WHERE ${changed}${andCounted('o')}
          UNION ALL
          SELECT ${o('w')}, ${this.hourOf}(w.${ts}), 1, w.${id}
            FROM old_rows o JOIN new_rows w ON w.${id} = o.${id}
           WHERE ${changed}${andCounted('w')}
        ) d GROUP BY ${this.groupByKeyAndHour};
        RETURN NULL;
      END $$`,
      // TRUNCATE fires no row or statement DELETE trigger: it empties the counters instead.
      `
      CREATE FUNCTION ${name}_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM ${name}_delta;
        DELETE FROM ${name}_hour;
        DELETE FROM ${name}_day;
        DELETE FROM ${name}_total;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER ${name}_ins AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${name}_on_insert()`,
      `CREATE TRIGGER ${name}_del AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${name}_on_delete()`,
      `CREATE TRIGGER ${name}_upd AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${name}_on_update()`,
      `CREATE TRIGGER ${name}_trunc AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${name}_on_truncate()`,
    ];
  }

  /**
   * Counts the rows already in the table as deltas (migration `up` after `schema()`, in the same
   * transaction: creating the triggers locked out writers, so no row is missed or counted twice).
   */
  backfill(): string {
    const { name, table, timeColumn: ts, idColumn: id } = this.spec;
    return `INSERT INTO ${name}_delta (${this.dims}, hour, n, min_id, max_id)
      SELECT ${this.dims}, ${this.hourOf}(${ts}), count(*), min(${id}), max(${id}) FROM ${table} ${whereOf(this.counted())} GROUP BY ${this.groupByKeyAndHour}`;
  }

  /**
   * DDL of the rollups (migration `up`, after `schema()`): `<name>_rollup_hour`, `_day` and
   * `_total` count the rows per key without the `rollup` dimension, so a filter that leaves it
   * open sums a few rows per bucket instead of one per value (a createdAt range over all orders
   * at 1M leads read 42k day rows, 24 ms). Statement triggers on the counters keep them: every
   * change folded into a counter row is folded into its rollup in the same statement, whichever
   * compactor (of whatever version) folds, so the rollups always equal the sums of the counters.
   * Their id bounds only widen (until the bucket empties): still bounds of every counted id.
   * The keys lead with the bucket: a filter without the other dimensions is a range of buckets
   * (PostgreSQL 15 read all 87k hour rows of a 1M-lead table for a one-day range when the key led
   * with the status); day rows are read by index-only scans (the key INCLUDEs the counts).
   */
  rollupSchema(): string[] {
    const { name, rollup } = this.spec;
    if (rollup === undefined) throw new Error(`counter set ${name} has no rollup`);
    const rest = this.spec.dimensions.filter((d) => d !== rollup);
    const keyCols = rest.map((d) => `${d} int NOT NULL,`).join('\n        ');
    const ddl: string[] = [];
    for (const bucket of ['hour', 'day', null] as const) {
      const level = bucket ?? 'total';
      const key = [...rest, ...(bucket ? [bucket] : [])].join(', ');
      const counters = `${name}_${level}`;
      const target = `${name}_rollup_${level}`;
      ddl.push(`
      CREATE TABLE ${target} (
        ${keyCols}${bucket ? `\n        ${bucket} timestamptz NOT NULL,` : ''}
        n bigint NOT NULL,
        min_id int,
        max_id int,
        PRIMARY KEY (${bucket ? `${bucket}, ${rest.join(', ')}` : key})${bucket === 'day' ? ' INCLUDE (n, min_id, max_id)' : ''}
      )`);
      // Adds n to a rollup row, widening its bounds, or clearing them once it counts nothing.
      const fold = (select: string) => `
        INSERT INTO ${target} AS r (${key}, n, min_id, max_id)
        ${select}
        ON CONFLICT (${key}) DO UPDATE SET n = r.n + EXCLUDED.n,
          min_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE least(r.min_id, EXCLUDED.min_id) END,
          max_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE greatest(r.max_id, EXCLUDED.max_id) END;`;
      const sameRow = [...this.spec.dimensions, ...(bucket ? [bucket] : [])].map((c) => `w.${c} = o.${c}`).join(' AND ');
      const bodies: Record<'ins' | 'upd' | 'del', string> = {
        ins: fold(`SELECT ${key}, sum(n), min(min_id), max(max_id) FROM new_rows GROUP BY ${key}`),
        upd: fold(
          `SELECT ${[...rest, ...(bucket ? [bucket] : [])].map((c) => `w.${c}`).join(', ')}, sum(w.n - o.n), min(w.min_id), max(w.max_id)
           FROM new_rows w JOIN old_rows o ON ${sameRow} GROUP BY ${[...rest, ...(bucket ? [bucket] : [])].map((c) => `w.${c}`).join(', ')}`,
        ),
        del: fold(`SELECT ${key}, -sum(n), NULL::int, NULL::int FROM old_rows GROUP BY ${key}`),
      };
      for (const [event, body] of Object.entries(bodies) as ['ins' | 'upd' | 'del', string][]) {
        ddl.push(`
      CREATE FUNCTION ${target}_on_${event}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN${body}
        RETURN NULL;
      END $$`);
        const referencing = { ins: 'NEW TABLE AS new_rows', upd: 'OLD TABLE AS old_rows NEW TABLE AS new_rows', del: 'OLD TABLE AS old_rows' }[event];
        const on = { ins: 'INSERT', upd: 'UPDATE', del: 'DELETE' }[event];
        ddl.push(
          `CREATE TRIGGER ${target}_${event} AFTER ${on} ON ${counters} REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${target}_on_${event}()`,
        );
      }
      // The counters already folded, counted once (migration `up`: creating the triggers locked the compactor out).
      ddl.push(`INSERT INTO ${target} (${key}, n, min_id, max_id) SELECT ${key}, sum(n), min(min_id), max(max_id) FROM ${counters} GROUP BY ${key}`);
    }
    return ddl;
  }

  /** DDL removing what `rollupSchema()` made (migration `down`). */
  dropRollupSchema(): string[] {
    const { name } = this.spec;
    return ['hour', 'day', 'total'].flatMap((level) => [
      ...['ins', 'upd', 'del'].flatMap((e) => [
        `DROP TRIGGER ${name}_rollup_${level}_${e} ON ${name}_${level}`,
        `DROP FUNCTION ${name}_rollup_${level}_on_${e}()`,
      ]),
      `DROP TABLE ${name}_rollup_${level}`,
    ]);
  }

  /** DDL removing what `schema()` made (migration `down`). */
  dropSchema(): string[] {
    const { name, table } = this.spec;
    return [
      ...['ins', 'del', 'upd', 'trunc'].map((t) => `DROP TRIGGER ${name}_${t} ON ${table}`),
      ...['truncate', 'update', 'delete', 'insert'].map((f) => `DROP FUNCTION ${name}_on_${f}()`),
      `DROP FUNCTION ${this.hourOf}(timestamptz)`,
      ...['total', 'day', 'hour', 'delta'].map((t) => `DROP TABLE ${name}_${t}`),
    ];
  }

  // ---- reading ----------------------------------------------------------------------------

  /** Key conditions, on the counters or (with `alias`) on the counted table. */
  keyConditions(p: SqlParams, filter: CounterFilter, alias = ''): string[] {
    const conds: string[] = [];
    for (const d of this.spec.dimensions) {
      const values = filter.keys[d];
      if (values?.length) conds.push(`${alias}${d} = ANY(${p.add(values)}::int[])`);
    }
    return conds;
  }

  /** The exact count of matching rows and bounds of their ids, in one statement (one snapshot). */
  async stats(db: Queryable, filter: CounterFilter): Promise<CountStats> {
    const { sql, params } = this.statsQuery(filter);
    const rows = (await db.query(sql, params)) as { n: string; lo: number | null; hi: number | null }[];
    return { total: Number(rows[0].n), minId: rows[0].lo, maxId: rows[0].hi };
  }

  /**
   * The statement behind `stats`: whole hours (or all time) from the counters, plus an exact
   * count of the boundary hours a time range cuts (count-plan.ts). The id bounds cover every
   * bucket the filter touches (a superset of the matches).
   */
  statsQuery(filter: CounterFilter): { sql: string; params: unknown[] } {
    const { name: set, table, timeColumn: ts, rollup } = this.spec;
    for (const k of Object.keys(filter.keys)) if (!this.spec.dimensions.includes(k)) throw new Error(`counter set ${set} has no dimension ${k}`);
    // Compacted counts from the rollups when the filter leaves the rolled-up dimension open; deltas always per key.
    const name = rollup !== undefined && !filter.keys[rollup]?.length ? `${set}_rollup` : set;
    const delta = `${set}_delta`;
    const from = filter.from ?? null;
    const to = filter.to ?? null;
    const plan = planCount(from, to);
    const p = new SqlParams();
    if (plan.kind === 'all') {
      const a = whereOf(this.keyConditions(p, filter));
      const sql = `SELECT coalesce(sum(n), 0)::bigint AS n, min(min_id) AS lo, max(max_id) AS hi FROM (
               SELECT n, min_id, max_id FROM ${name}_total ${a}
               UNION ALL SELECT n, min_id, max_id FROM ${delta} ${a}) c`;
      return { sql, params: p.values };
    }
    // Every bucket the range touches contributes its id bounds; only whole hours and days its count.
    const hourOfFrom = from ? hourOf(from) : null;
    const hourOfTo = to ? hourOf(to) : null;
    const touched = (col: string) => [...(hourOfFrom ? [`${col} >= ${p.add(hourOfFrom)}`] : []), ...(hourOfTo ? [`${col} <= ${p.add(hourOfTo)}`] : [])];
    const within = (col: string, r: BucketRange) => [...(r.from ? [`${col} >= ${p.add(r.from)}`] : []), ...(r.to ? [`${col} < ${p.add(r.to)}`] : [])];
    const whole = plan.kind === 'buckets' ? within('hour', plan.hours).join(' AND ') || 'true' : 'false';
    const days = plan.kind === 'buckets' ? plan.days : null;
    const hourConds = [...this.keyConditions(p, filter), ...touched('hour')];
    if (days) hourConds.push(`NOT (${within('hour', days).join(' AND ')})`);
    const parts = [`SELECT n, min_id, max_id, ${whole} AS whole FROM ${name}_hour ${whereOf(hourConds)}`];
    if (days) parts.push(`SELECT n, min_id, max_id, true FROM ${name}_day ${whereOf([...this.keyConditions(p, filter), ...within('day', days)])}`);
    parts.push(`SELECT n, min_id, max_id, ${whole} FROM ${delta} ${whereOf([...this.keyConditions(p, filter), ...touched('hour')])}`);
    const edges: string[] = [];
    if (plan.kind === 'exact') edges.push(`(${ts} >= ${p.add(plan.from)} AND ${ts} <= ${p.add(plan.to)})`);
    else {
      if (plan.below) edges.push(`(${ts} >= ${p.add(plan.below.from)} AND ${ts} < ${p.add(plan.below.to)})`);
      if (plan.above) edges.push(`(${ts} >= ${p.add(plan.above.from)} AND ${ts} <= ${p.add(plan.above.to)})`);
    }
    // The boundary hours from the table itself: the set's rows only (nullable keys filtered or set).
    const unfilteredNullable = (this.spec.nullable ?? []).filter((c) => !filter.keys[c]?.length).map((c) => `${c} IS NOT NULL`);
    const exact = edges.length
      ? ` + (SELECT count(*) FROM ${table} ${whereOf([...this.keyConditions(p, filter), ...unfilteredNullable, edges.length > 1 ? `(${edges.join(' OR ')})` : edges[0]])})`
      : '';
    const sql = `SELECT (coalesce(sum(n) FILTER (WHERE whole), 0)${exact})::bigint AS n, min(min_id) AS lo, max(max_id) AS hi
             FROM (${parts.join(' UNION ALL ')}) c`;
    return { sql, params: p.values };
  }

  // ---- compaction -------------------------------------------------------------------------

  /**
   * Folds up to `batch` deltas into the hourly, daily and all-time counters, in one statement
   * (one snapshot, one transaction). Returns how many deltas were folded; 0 when another
   * instance is compacting this set.
   */
  async compact(ds: DataSource, batch: number): Promise<number> {
    const { name } = this.spec;
    const dims = this.dims;
    const k = this.spec.dimensions.length;
    const groupKey = this.spec.dimensions.map((_, i) => i + 1).join(', ');
    const groupKeyAndBucket = `${groupKey}, ${k + 1}`;
    // Id bounds of a counter row after folding: widened, or cleared once the bucket is empty.
    const widen = (t: string) =>
      `min_id = CASE WHEN ${t}.n + EXCLUDED.n = 0 THEN NULL ELSE least(${t}.min_id, EXCLUDED.min_id) END,
   max_id = CASE WHEN ${t}.n + EXCLUDED.n = 0 THEN NULL ELSE greatest(${t}.max_id, EXCLUDED.max_id) END`;
    return ds.transaction(async (m) => {
      const [{ locked }]: { locked: boolean }[] = await m.query(`SELECT pg_try_advisory_xact_lock(hashtextextended('${this.lockKey}', 0)) AS locked`);
      if (!locked) return 0;
      const rows: { moved: number }[] = await m.query(
        // The batch is a range of ids below a cut found first: `id IN (SELECT ... LIMIT)` was planned
        // as a nested loop over the whole delta table when its statistics predated a bulk insert
        // (28 minutes for 50k deltas in the lists bench); a range has no such plan.
        `WITH moved AS (
           DELETE FROM ${name}_delta WHERE id <= (SELECT max(id) FROM (SELECT id FROM ${name}_delta ORDER BY id LIMIT $1) batch)
           RETURNING ${dims}, hour, n, min_id, max_id
         ), hours AS (
           INSERT INTO ${name}_hour AS c (${dims}, hour, n, min_id, max_id)
           SELECT ${dims}, hour, sum(n), min(min_id), max(max_id) FROM moved GROUP BY ${groupKeyAndBucket}
           ON CONFLICT (${dims}, hour) DO UPDATE SET n = c.n + EXCLUDED.n, ${widen('c')}
         ), days AS (
           INSERT INTO ${name}_day AS c (${dims}, day, n, min_id, max_id)
           SELECT ${dims}, date_trunc('day', hour AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', sum(n), min(min_id), max(max_id)
           FROM moved GROUP BY ${groupKeyAndBucket}
           ON CONFLICT (${dims}, day) DO UPDATE SET n = c.n + EXCLUDED.n, ${widen('c')}
         ), totals AS (
           INSERT INTO ${name}_total AS c (${dims}, n, min_id, max_id)
           SELECT ${dims}, sum(n), min(min_id), max(max_id) FROM moved GROUP BY ${groupKey}
           ON CONFLICT (${dims}) DO UPDATE SET n = c.n + EXCLUDED.n, ${widen('c')}
         )
         SELECT count(*)::int AS moved FROM moved`,
        [batch],
      );
      return rows[0].moved;
    });
  }
}
