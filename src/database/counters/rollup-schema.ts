import { CounterSpec } from './counter-spec';
import { type JoinPlanning, statementTrigger, triggerFunction, type TriggerEvent } from './statement-triggers';

const LEVELS = ['hour', 'day', null] as const;
type Bucket = (typeof LEVELS)[number];

/** One rollup table and the counter table it sums: names and the key (the dimensions but the rolled-up one, and the bucket). */
interface RollupLevel {
  bucket: Bucket;
  /** The counter table the rollup sums, e.g. `lead_count_day`. */
  counters: string;
  /** The rollup table, e.g. `lead_count_rollup_day`. */
  target: string;
  /** The dimensions kept, without the bucket. */
  rest: string[];
  /** The rollup row's key columns: `rest`, then the bucket. */
  key: string[];
}

/**
 * The counters summed over the `rollup` dimension (migration `up`, after the counter schema): a
 * filter leaving it open sums a few rows per bucket, not one per value (all orders over a range at
 * 1M leads: 42k day rows, 24 ms). Triggers on the counters fold each change in the same statement.
 */
export function rollupSchema(spec: CounterSpec): string[] {
  return levelsOf(spec).flatMap((rl) => [rollupTable(rl), ...rollupTriggers(spec, rl), initialRollup(rl)]);
}

/** The hour, day and total levels of a set's rollup. */
function levelsOf(spec: CounterSpec): RollupLevel[] {
  const { name, rollup } = spec;
  if (rollup === undefined) throw new Error(`counter set ${name} has no rollup`);
  const rest = spec.dimensions.filter((d) => d !== rollup);
  return LEVELS.map((bucket) => {
    const level = bucket ?? 'total';
    return { bucket, counters: `${name}_${level}`, target: `${name}_rollup_${level}`, rest, key: [...rest, ...(bucket ? [bucket] : [])] };
  });
}

/** DDL removing what `rollupSchema` made (migration `down`). */
export function dropRollupSchema(spec: CounterSpec): string[] {
  const { name } = spec;
  return ['hour', 'day', 'total'].flatMap((level) => [
    ...['ins', 'upd', 'del'].flatMap((e) => [
      `DROP TRIGGER ${name}_rollup_${level}_${e} ON ${name}_${level}`,
      `DROP FUNCTION ${name}_rollup_${level}_on_${e}()`,
    ]),
    `DROP TABLE ${name}_rollup_${level}`,
  ]);
}

/** Keyed by bucket first: a filter on the other dimensions alone reads a range of buckets; day rows are read index-only. */
function rollupTable({ bucket, target, rest, key }: RollupLevel): string {
  const keyCols = rest.map((d) => `${d} int NOT NULL,`).join('\n        ');
  const primaryKey = bucket ? `${bucket}, ${rest.join(', ')}` : key.join(', ');
  return `
      CREATE TABLE ${target} (
        ${keyCols}${bucket ? `\n        ${bucket} timestamptz NOT NULL,` : ''}
        n bigint NOT NULL,
        min_id int,
        max_id int,
        PRIMARY KEY (${primaryKey})${bucket === 'day' ? ' INCLUDE (n, min_id, max_id)' : ''}
      )`;
}

/** For each change of a counter row (insert, update, delete), a function folding it into the rollup and the trigger calling it. */
function rollupTriggers(spec: CounterSpec, rl: RollupLevel): string[] {
  const { counters, target } = rl;
  const key = rl.key.join(', ');
  const functions: [string, TriggerEvent, string][] = [
    [
      'ins',
      'INSERT',
      triggerFunction(`${target}_on_ins`, `${foldIntoRollup(rl, `SELECT ${key}, sum(n), min(min_id), max(max_id) FROM new_rows GROUP BY ${key}`)};`),
    ],
    ['upd', 'UPDATE', rollupUpdateFunction(spec, rl, 'no-nested-loop')],
    [
      'del',
      'DELETE',
      triggerFunction(`${target}_on_del`, `${foldIntoRollup(rl, `SELECT ${key}, -sum(n), NULL::int, NULL::int FROM old_rows GROUP BY ${key}`)};`),
    ],
  ];
  return functions.flatMap(([suffix, event, fn]) => [fn, statementTrigger(`${target}_${suffix}`, event, counters, `${target}_on_${suffix}`)]);
}

/** The update function of a rollup level: counter rows changed in place add their difference (joins the transition tables). */
function rollupUpdateFunction(spec: CounterSpec, rl: RollupLevel, planning: JoinPlanning, replace = false): string {
  const newKey = rl.key.map((c) => `w.${c}`).join(', ');
  const sameRow = [...spec.dimensions, ...(rl.bucket ? [rl.bucket] : [])].map((c) => `w.${c} = o.${c}`).join(' AND ');
  const select = `SELECT ${newKey}, sum(w.n - o.n), min(w.min_id), max(w.max_id)
           FROM new_rows w JOIN old_rows o ON ${sameRow} GROUP BY ${newKey}`;
  return triggerFunction(`${rl.target}_on_upd`, `${foldIntoRollup(rl, select)};`, { replace, joins: planning });
}

/** The update functions of every rollup level, replacing those of that name (a migration changing how they plan). */
export function rollupUpdateFunctions(spec: CounterSpec, planning: JoinPlanning): string[] {
  return levelsOf(spec).map((rl) => rollupUpdateFunction(spec, rl, planning, true));
}

/** Adds the selected counts to rollup rows, widening their id bounds, or clearing them once a row counts nothing. */
function foldIntoRollup({ target, key }: RollupLevel, select: string): string {
  const keyList = key.join(', ');
  return `
        INSERT INTO ${target} AS r (${keyList}, n, min_id, max_id)
        ${select}
        ON CONFLICT (${keyList}) DO UPDATE SET n = r.n + EXCLUDED.n,
          min_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE least(r.min_id, EXCLUDED.min_id) END,
          max_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE greatest(r.max_id, EXCLUDED.max_id) END`;
}

/** The counters already folded, counted once (migration `up`: creating the triggers locked the compactor out). */
function initialRollup({ counters, target, key }: RollupLevel): string {
  const keyList = key.join(', ');
  return `INSERT INTO ${target} (${keyList}, n, min_id, max_id) SELECT ${keyList}, sum(n), min(min_id), max(max_id) FROM ${counters} GROUP BY ${keyList}`;
}
