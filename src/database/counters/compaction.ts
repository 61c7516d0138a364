import { DataSource } from 'typeorm';
import { CounterSpec, keyColumnList } from './counter-spec';

/** The statement taking the advisory lock that lets one compactor at a time fold this set (`locked`). */
export function compactionLockQuery(spec: CounterSpec): string {
  const lockKey = `${spec.name.replace(/_/g, '-')}-compact`;
  return `SELECT pg_try_advisory_xact_lock(hashtextextended('${lockKey}', 0)) AS locked`;
}

/**
 * The statement folding the oldest `$1` deltas into the hour, day and all-time counters in one
 * snapshot, returning how many (`moved`). The batch is an id range below a cut found first: with
 * stale statistics `id IN (SELECT ... LIMIT)` can be planned as a nested loop over every delta.
 */
export function compactionQuery(spec: CounterSpec): string {
  const { name } = spec;
  const dims = keyColumnList(spec);
  const groupKey = spec.dimensions.map((_, i) => i + 1).join(', ');
  const groupKeyAndBucket = `${groupKey}, ${spec.dimensions.length + 1}`;
  // Id bounds of a counter row after folding: widened, or cleared once the bucket is empty.
  const widen = (t: string) => `min_id = CASE WHEN ${t}.n + EXCLUDED.n = 0 THEN NULL ELSE least(${t}.min_id, EXCLUDED.min_id) END,
             max_id = CASE WHEN ${t}.n + EXCLUDED.n = 0 THEN NULL ELSE greatest(${t}.max_id, EXCLUDED.max_id) END`;
  return `WITH moved AS (
           DELETE FROM ${name}_delta WHERE id <= (SELECT max(id) FROM (SELECT id FROM ${name}_delta ORDER BY id LIMIT $1) batch)
           RETURNING ${dims}, hour, n, min_id, max_id
         ), hours AS (
           INSERT INTO ${name}_hour AS c (${dims}, hour, n, min_id, max_id)
           SELECT ${dims}, hour, sum(n), min(min_id), max(max_id) FROM moved GROUP BY ${groupKeyAndBucket}
           ON CONFLICT (${dims}, hour) DO UPDATE SET n = c.n + EXCLUDED.n,
             ${widen('c')}
         ), days AS (
           INSERT INTO ${name}_day AS c (${dims}, day, n, min_id, max_id)
           SELECT ${dims}, date_trunc('day', hour AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', sum(n), min(min_id), max(max_id)
           FROM moved GROUP BY ${groupKeyAndBucket}
           ON CONFLICT (${dims}, day) DO UPDATE SET n = c.n + EXCLUDED.n,
             ${widen('c')}
         ), totals AS (
           INSERT INTO ${name}_total AS c (${dims}, n, min_id, max_id)
           SELECT ${dims}, sum(n), min(min_id), max(max_id) FROM moved GROUP BY ${groupKey}
           ON CONFLICT (${dims}) DO UPDATE SET n = c.n + EXCLUDED.n,
             ${widen('c')}
         )
         SELECT count(*)::int AS moved FROM moved`;
}

/** Folds up to `batch` deltas in one transaction; 0 when another instance holds the set's lock. */
export function compact(ds: DataSource, spec: CounterSpec, batch: number): Promise<number> {
  return ds.transaction(async (m) => {
    const [{ locked }]: { locked: boolean }[] = await m.query(compactionLockQuery(spec));
    if (!locked) return 0;
    const rows: { moved: number }[] = await m.query(compactionQuery(spec), [batch]);
    return rows[0].moved;
  });
}
