import { whereOf } from '../sql-params';
import { CounterSpec, countedRowConditions, groupByKeyAndHour, hourFunction, keyColumnList } from './counter-spec';
import { type JoinPlanning, statementTrigger, triggerFunction } from './statement-triggers';

/**
 * DDL of a set (migration `up`). Writers never update a shared row: statement triggers append one
 * delta per key and hour a statement touched, so bursts of inserts take no common lock; the
 * compactor folds deltas into the counters (compaction.ts) and a total reads both.
 */
export function counterSchema(spec: CounterSpec, planning: JoinPlanning = 'no-nested-loop'): string[] {
  return [...counterTables(spec), hourFunctionDdl(spec), ...counterTriggerFunctions(spec, planning), ...counterTriggers(spec)];
}

/** DDL removing what `counterSchema` made (migration `down`), triggers first. */
export function dropCounterSchema(spec: CounterSpec): string[] {
  const { name, table } = spec;
  return [
    ...['ins', 'del', 'upd', 'trunc'].map((t) => `DROP TRIGGER ${name}_${t} ON ${table}`),
    ...['truncate', 'update', 'delete', 'insert'].map((f) => `DROP FUNCTION ${name}_on_${f}()`),
    `DROP FUNCTION ${hourFunction(spec)}(timestamptz)`,
    ...['total', 'day', 'hour', 'delta'].map((t) => `DROP TABLE ${name}_${t}`),
  ];
}

/**
 * Counts the rows already in the table as deltas (migration `up` after the schema, in the same
 * transaction: creating the triggers locked out writers, so no row is missed or counted twice).
 */
export function counterBackfill(spec: CounterSpec): string {
  const { name, table, timeColumn: ts, idColumn: id } = spec;
  const dims = keyColumnList(spec);
  return `INSERT INTO ${name}_delta (${dims}, hour, n, min_id, max_id)
      SELECT ${dims}, ${hourFunction(spec)}(${ts}), count(*), min(${id}), max(${id}) FROM ${table} ${whereOf(countedRowConditions(spec))} GROUP BY ${groupByKeyAndHour(spec)}`;
}

/** The dimensions as `NOT NULL` int columns of a counter table. */
const keyColumnsDdl = (spec: CounterSpec) => spec.dimensions.map((d) => `${d} int NOT NULL,`).join('\n        ');

/**
 * The delta table, then the hour, day and all-time counters. Each row keeps bounds of the ids it
 * counted (widened as rows arrive, cleared when it counts nothing): every row of its bucket lies inside.
 */
function counterTables(spec: CounterSpec): string[] {
  const { name } = spec;
  const dims = keyColumnList(spec);
  const keyCols = keyColumnsDdl(spec);
  const counterTable = (bucket: 'hour' | 'day' | null, pk: string) => `
      CREATE TABLE ${name}_${bucket ?? 'total'} (
        ${keyCols}${bucket ? `\n        ${bucket} timestamptz NOT NULL,` : ''}
        n bigint NOT NULL,
        min_id int,
        max_id int,
        ${pk}
      )`;
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
    counterTable('hour', `PRIMARY KEY (${dims}, hour)`),
    `CREATE INDEX ${name}_hour_hour_idx ON ${name}_hour (hour)`,
    counterTable('day', `PRIMARY KEY (${dims}, day)`),
    `CREATE INDEX ${name}_day_day_idx ON ${name}_day (day)`,
    counterTable(null, `PRIMARY KEY (${dims})`),
  ];
}

/** The hour of a row in UTC, whatever the session's TimeZone (date_trunc on timestamptz uses it). */
function hourFunctionDdl(spec: CounterSpec): string {
  return `
      CREATE FUNCTION ${hourFunction(spec)}(ts timestamptz) RETURNS timestamptz
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT date_trunc('hour', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $$`;
}

/** The functions appending one delta per key and hour a statement inserted, deleted or moved, and emptying the set on TRUNCATE. */
function counterTriggerFunctions(spec: CounterSpec, planning: JoinPlanning): string[] {
  const { name } = spec;
  return [
    ...statementTriggerFunctions(spec, planning),
    // TRUNCATE fires no row or statement DELETE trigger: it empties the counters instead.
    triggerFunction(
      `${name}_on_truncate`,
      `
        DELETE FROM ${name}_delta;
        DELETE FROM ${name}_hour;
        DELETE FROM ${name}_day;
        DELETE FROM ${name}_total;`,
    ),
  ];
}

/** The insert, delete and update functions of the statement triggers (they read transition tables). */
export function statementTriggerFunctions(spec: CounterSpec, planning: JoinPlanning): string[] {
  const { name, timeColumn: ts, idColumn: id } = spec;
  const dims = keyColumnList(spec);
  const hourOf = hourFunction(spec);
  const whereCounted = countedRowConditions(spec).length ? ` WHERE ${countedRowConditions(spec).join(' AND ')}` : '';
  return [
    triggerFunction(
      `${name}_on_insert`,
      `
        INSERT INTO ${name}_delta (${dims}, hour, n, min_id, max_id)
        SELECT ${dims}, ${hourOf}(${ts}), count(*), min(${id}), max(${id}) FROM new_rows${whereCounted} GROUP BY ${groupByKeyAndHour(spec)};`,
    ),
    triggerFunction(
      `${name}_on_delete`,
      `
        INSERT INTO ${name}_delta (${dims}, hour, n)
        SELECT ${dims}, ${hourOf}(${ts}), -count(*) FROM old_rows${whereCounted} GROUP BY ${groupByKeyAndHour(spec)};`,
    ),
    updateTriggerFunction(spec, planning),
  ];
}

/** The update trigger's function (joins the transition tables); `replace`: one of that name. */
export function updateTriggerFunction(spec: CounterSpec, planning: JoinPlanning, replace = false): string {
  return triggerFunction(`${spec.name}_on_update`, `${updateDeltas(spec)};`, { replace, joins: planning });
}

/**
 * The update trigger's statement: a row whose key or time changed counts -1 under its old key and
 * hour and +1 under its new ones; other updates add nothing. No HAVING sum(n) <> 0: two rows
 * swapping keys net to 0 but still widen the id bounds.
 */
function updateDeltas(spec: CounterSpec): string {
  const { name, timeColumn: ts, idColumn: id, dimensions } = spec;
  const dims = keyColumnList(spec);
  const hourOf = hourFunction(spec);
  const keyOf = (alias: string) => dimensions.map((d) => `${alias}.${d}`).join(', ');
  const changed = `(${keyOf('o')}, o.${ts}) IS DISTINCT FROM (${keyOf('w')}, w.${ts})`;
  const andCounted = (alias: string) =>
    countedRowConditions(spec, `${alias}.`)
      .map((c) => ` AND ${c}`)
      .join('');
  return `
        INSERT INTO ${name}_delta (${dims}, hour, n, min_id, max_id)
        SELECT ${dims}, hour, sum(n)::int, min(id), max(id) FROM (
          SELECT ${keyOf('o')}, ${hourOf}(o.${ts}) AS hour, -1 AS n, NULL::int AS id
            FROM old_rows o JOIN new_rows w ON w.${id} = o.${id}
           WHERE ${changed}${andCounted('o')}
          UNION ALL
          SELECT ${keyOf('w')}, ${hourOf}(w.${ts}), 1, w.${id}
            FROM old_rows o JOIN new_rows w ON w.${id} = o.${id}
           WHERE ${changed}${andCounted('w')}
        ) d GROUP BY ${groupByKeyAndHour(spec)}`;
}

/** The statement triggers on the counted table. */
function counterTriggers(spec: CounterSpec): string[] {
  const { name, table } = spec;
  return [
    statementTrigger(`${name}_ins`, 'INSERT', table, `${name}_on_insert`),
    statementTrigger(`${name}_del`, 'DELETE', table, `${name}_on_delete`),
    statementTrigger(`${name}_upd`, 'UPDATE', table, `${name}_on_update`),
    statementTrigger(`${name}_trunc`, 'TRUNCATE', table, `${name}_on_truncate`),
  ];
}
