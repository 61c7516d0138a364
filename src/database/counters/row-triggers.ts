import { CounterSpec, countedRowConditions, hourFunction, keyColumnList } from './counter-spec';
import { statementTriggerFunctions } from './counter-schema';
import { type JoinPlanning, statementTrigger, triggerFunction } from './statement-triggers';

/**
 * The set's deltas written by row triggers: one delta row per row inserted or deleted, and per row whose key or time an update
 * changed. A `WHEN` clause keeps every other row from calling the function at all, so an update that leaves the counted columns
 * alone (a recorded call's lead update, most of the time) pays nothing; a statement trigger pays its transition tables on every
 * statement. Row triggers also run on a Citus shard, where transition tables are not seen (docs/scaling.md).
 */
export function rowCounterTriggers(spec: CounterSpec): string[] {
  const { name, table } = spec;
  return [
    ...dropTriggersAndFunctions(spec),
    triggerFunction(`${name}_on_insert`, `\n        ${deltaInsert(spec, 'NEW', 1)};`),
    triggerFunction(`${name}_on_delete`, `\n        ${deltaInsert(spec, 'OLD', -1)};`),
    triggerFunction(`${name}_on_update`, updateBody(spec)),
    rowTrigger(`${name}_ins`, 'INSERT', table, `${name}_on_insert`, counted(spec, 'NEW')),
    rowTrigger(`${name}_del`, 'DELETE', table, `${name}_on_delete`, counted(spec, 'OLD')),
    rowTrigger(`${name}_upd`, 'UPDATE', table, `${name}_on_update`, [keyOrTimeChanged(spec)]),
  ];
}

/** Migration `down` of `rowCounterTriggers`: the statement triggers and their functions as `CounterSet.schema()` made them. */
export function statementCounterTriggers(spec: CounterSpec, planning: JoinPlanning): string[] {
  const { name, table } = spec;
  return [
    ...dropTriggersAndFunctions(spec),
    ...statementTriggerFunctions(spec, planning),
    statementTrigger(`${name}_ins`, 'INSERT', table, `${name}_on_insert`),
    statementTrigger(`${name}_del`, 'DELETE', table, `${name}_on_delete`),
    statementTrigger(`${name}_upd`, 'UPDATE', table, `${name}_on_update`),
  ];
}

/** Dropped, not replaced: a replaced function would keep settings of the old one that its `CREATE` does not name. */
function dropTriggersAndFunctions(spec: CounterSpec): string[] {
  const { name, table } = spec;
  return [
    ...['ins', 'del', 'upd'].map((t) => `DROP TRIGGER ${name}_${t} ON ${table}`),
    ...['insert', 'delete', 'update'].map((f) => `DROP FUNCTION ${name}_on_${f}()`),
  ];
}

/** `CREATE TRIGGER` of an AFTER row trigger, called only for rows meeting every condition. */
function rowTrigger(trigger: string, event: 'INSERT' | 'UPDATE' | 'DELETE', table: string, fn: string, when: string[]): string {
  const whenClause = when.length ? `WHEN (${when.join(' AND ')}) ` : '';
  return `CREATE TRIGGER ${trigger} AFTER ${event} ON ${table} FOR EACH ROW ${whenClause}EXECUTE FUNCTION ${fn}()`;
}

/** The conditions that the row `rec` (NEW or OLD) is one the set counts. */
const counted = (spec: CounterSpec, rec: 'NEW' | 'OLD'): string[] => countedRowConditions(spec, `${rec}.`);

const keyAndTime = (spec: CounterSpec, rec: 'NEW' | 'OLD'): string => [...spec.dimensions, spec.timeColumn].map((c) => `${rec}.${c}`).join(', ');

/** An update moves a row between counters only when a dimension or the time changes. */
const keyOrTimeChanged = (spec: CounterSpec): string => `(${keyAndTime(spec, 'OLD')}) IS DISTINCT FROM (${keyAndTime(spec, 'NEW')})`;

/** One delta for the row `rec`: `n` under its key and hour, the id bounds widened by its id when it is counted in (n ≥ 0). */
function deltaInsert(spec: CounterSpec, rec: 'NEW' | 'OLD', n: number): string {
  const { name, idColumn: id, timeColumn: ts } = spec;
  const key = spec.dimensions.map((d) => `${rec}.${d}`).join(', ');
  const bounds = n >= 0 ? `${rec}.${id}, ${rec}.${id}` : 'NULL, NULL';
  return `INSERT INTO ${name}_delta (${keyColumnList(spec)}, hour, n, min_id, max_id) VALUES (${key}, ${hourFunction(spec)}(${rec}.${ts}), ${n}, ${bounds})`;
}

/**
 * The update trigger's body: -1 under the old key and hour when the old row was counted, +1 under the new ones when the new row
 * is. A row that stays in its key and hour (its time moved within the hour) still widens the id bounds, as one delta of 0.
 */
function updateBody(spec: CounterSpec): string {
  const guard = (rec: 'NEW' | 'OLD', statement: string) => {
    const conditions = counted(spec, rec);
    return conditions.length ? `\n        IF ${conditions.join(' AND ')} THEN\n          ${statement};\n        END IF;` : `\n        ${statement};`;
  };
  const sameBucket = [
    ...spec.dimensions.map((d) => `OLD.${d} = NEW.${d}`),
    `${hourFunction(spec)}(OLD.${spec.timeColumn}) = ${hourFunction(spec)}(NEW.${spec.timeColumn})`,
    ...counted(spec, 'OLD'),
    ...counted(spec, 'NEW'),
  ].join(' AND ');
  return `
        IF ${sameBucket} THEN
          ${deltaInsert(spec, 'NEW', 0)};
          RETURN NULL;
        END IF;${guard('OLD', deltaInsert(spec, 'OLD', -1))}${guard('NEW', deltaInsert(spec, 'NEW', 1))}`;
}
