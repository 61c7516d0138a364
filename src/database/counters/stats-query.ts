import { SqlParams, whereOf } from '../sql-params';
import { BucketRange, CountPlan, hourOf, planCount } from './count-plan';
import { CounterFilter, CounterSpec } from './counter-spec';

type RangePlan = Exclude<CountPlan, { kind: 'all' }>;

/** Key conditions, on the counters or (with `alias`) on the counted table. */
export function keyConditions(spec: CounterSpec, p: SqlParams, filter: CounterFilter, alias = ''): string[] {
  const conds: string[] = [];
  for (const d of spec.dimensions) {
    const values = filter.keys[d];
    if (values?.length) conds.push(`${alias}${d} = ANY(${p.add(values)}::int[])`);
  }
  return conds;
}

/**
 * The statement counting a filter's rows with bounds of their ids (`n`, `lo`, `hi`): whole hours
 * (or all time) from the counters, plus an exact count of the boundary hours a time range cuts
 * (count-plan.ts). The id bounds cover every bucket the filter touches (a superset of the matches).
 */
export function statsQuery(spec: CounterSpec, filter: CounterFilter): { sql: string; params: unknown[] } {
  for (const k of Object.keys(filter.keys)) if (!spec.dimensions.includes(k)) throw new Error(`counter set ${spec.name} has no dimension ${k}`);
  const plan = planCount(filter.from ?? null, filter.to ?? null);
  const p = new SqlParams();
  const sql = plan.kind === 'all' ? allTimeStats(spec, p, filter) : rangeStats(spec, p, filter, plan);
  return { sql, params: p.values };
}

/** Compacted counts from the rollups when the filter leaves the rolled-up dimension open; deltas are always per key. */
function countersRead(spec: CounterSpec, filter: CounterFilter): string {
  return spec.rollup !== undefined && !filter.keys[spec.rollup]?.length ? `${spec.name}_rollup` : spec.name;
}

function allTimeStats(spec: CounterSpec, p: SqlParams, filter: CounterFilter): string {
  const where = whereOf(keyConditions(spec, p, filter));
  return `SELECT coalesce(sum(n), 0)::bigint AS n, min(min_id) AS lo, max(max_id) AS hi FROM (
               SELECT n, min_id, max_id FROM ${countersRead(spec, filter)}_total ${where}
               UNION ALL SELECT n, min_id, max_id FROM ${spec.name}_delta ${where}) c`;
}

function rangeStats(spec: CounterSpec, p: SqlParams, filter: CounterFilter, plan: RangePlan): string {
  const buckets = bucketRows(spec, p, filter, plan);
  const boundary = boundaryHoursCount(spec, p, filter, plan);
  return `SELECT (coalesce(sum(n) FILTER (WHERE whole), 0)${boundary ? ` + (${boundary})` : ''})::bigint AS n, min(min_id) AS lo, max(max_id) AS hi
             FROM (${buckets.join(' UNION ALL ')}) c`;
}

/**
 * The counter rows of every bucket the range touches, each flagged `whole` when it lies inside the
 * range: they all bound the ids, only the whole ones count. Whole days come from the day counters,
 * other hours from the hour counters, not yet folded changes from the deltas.
 */
function bucketRows(spec: CounterSpec, p: SqlParams, filter: CounterFilter, plan: RangePlan): string[] {
  const counters = countersRead(spec, filter);
  const hourOfFrom = filter.from ? hourOf(filter.from) : null;
  const hourOfTo = filter.to ? hourOf(filter.to) : null;
  const touched = (col: string) => [...(hourOfFrom ? [`${col} >= ${p.add(hourOfFrom)}`] : []), ...(hourOfTo ? [`${col} <= ${p.add(hourOfTo)}`] : [])];
  const within = (col: string, r: BucketRange) => [...(r.from ? [`${col} >= ${p.add(r.from)}`] : []), ...(r.to ? [`${col} < ${p.add(r.to)}`] : [])];
  const whole = plan.kind === 'buckets' ? within('hour', plan.hours).join(' AND ') || 'true' : 'false';
  const days = plan.kind === 'buckets' ? plan.days : null;
  const hourConds = [...keyConditions(spec, p, filter), ...touched('hour')];
  if (days) hourConds.push(`NOT (${within('hour', days).join(' AND ')})`);
  const rows = [`SELECT n, min_id, max_id, ${whole} AS whole FROM ${counters}_hour ${whereOf(hourConds)}`];
  if (days) rows.push(`SELECT n, min_id, max_id, true FROM ${counters}_day ${whereOf([...keyConditions(spec, p, filter), ...within('day', days)])}`);
  rows.push(`SELECT n, min_id, max_id, ${whole} FROM ${spec.name}_delta ${whereOf([...keyConditions(spec, p, filter), ...touched('hour')])}`);
  return rows;
}

/** The count of the set's rows in the boundary hours the range cuts, from the table itself; null when it cuts none. */
function boundaryHoursCount(spec: CounterSpec, p: SqlParams, filter: CounterFilter, plan: RangePlan): string | null {
  const ts = spec.timeColumn;
  const edges: string[] = [];
  if (plan.kind === 'exact') edges.push(`(${ts} >= ${p.add(plan.from)} AND ${ts} <= ${p.add(plan.to)})`);
  else {
    if (plan.below) edges.push(`(${ts} >= ${p.add(plan.below.from)} AND ${ts} < ${p.add(plan.below.to)})`);
    if (plan.above) edges.push(`(${ts} >= ${p.add(plan.above.from)} AND ${ts} <= ${p.add(plan.above.to)})`);
  }
  if (!edges.length) return null;
  // The set's rows only: NULLs of a nullable key the filter does not constrain are not counted.
  const unfilteredNullable = (spec.nullable ?? []).filter((c) => !filter.keys[c]?.length).map((c) => `${c} IS NOT NULL`);
  const inEdges = edges.length > 1 ? `(${edges.join(' OR ')})` : edges[0];
  return `SELECT count(*) FROM ${spec.table} ${whereOf([...keyConditions(spec, p, filter), ...unfilteredNullable, inEdges])}`;
}
