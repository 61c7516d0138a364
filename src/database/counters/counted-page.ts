import { Page, toPage } from '../../common/envelope';
import type { CountStats } from './counter-set';
import { SqlParams } from '../sql-params';

/** Every row a list can show has an id in [minId, maxId]. */
export interface IdBounds {
  minId: number;
  maxId: number;
}

/**
 * Confines a page query to the id range the counted rows occupy: with an index on the filtered
 * key and id (or the primary key) the page then reads about one page of index entries however
 * far into a huge table the matches lie.
 */
export function idBoundConditions(p: SqlParams, ids: IdBounds | undefined, column: string): string[] {
  return ids ? [`${column} >= ${p.add(ids.minId)}`, `${column} <= ${p.add(ids.maxId)}`] : [];
}

/**
 * A list page with its exact total: the stats answer first (total and id bounds), the page query
 * runs only when it can return rows, confined to the bounds.
 */
export async function countedPage<T>(stats: CountStats, offset: number, fetch: (ids: IdBounds) => Promise<T[]>): Promise<Page<T>> {
  if (offset >= stats.total || stats.minId === null || stats.maxId === null) return toPage([], offset, stats.total);
  return toPage(await fetch({ minId: stats.minId, maxId: stats.maxId }), offset, stats.total);
}

/** A key column of a page query and the values it may take (an index leads with the keys and ends with the id). */
export interface PageKey {
  column: string;
  values: readonly number[];
}

/** Key combinations read one by one at most; beyond, the last key becomes a plain condition. */
export const MAX_KEY_COMBINATIONS = 64;

/**
 * The ids of one page of `table` in id order, as a subquery: rows matching `keys` (each key = one of
 * its values), `conditions` (on alias `t`) and the id bounds. One branch per combination of key
 * values, each at most `offset + limit` rows in id order, merged by id.
 */
export function pageIdsQuery(p: SqlParams, q: { table: string; keys: PageKey[]; conditions: string[]; ids?: IdBounds; offset: number; limit: number }): string {
  const keys = q.keys.filter((k) => k.values.length > 0).map((k) => ({ ...k, values: [...new Set(k.values)] }));
  const conditions = [...q.conditions, ...idBoundConditions(p, q.ids, 't.id')];
  // Past MAX_KEY_COMBINATIONS the last keys become `= ANY` conditions.
  while (keys.length && keys.reduce((n, k) => n * k.values.length, 1) > MAX_KEY_COMBINATIONS) {
    const k = keys.pop()!;
    conditions.push(`t.${k.column} = ANY(${p.add(k.values)}::int[])`);
  }
  const where = (conds: string[]) => (conds.length ? `WHERE ${conds.join(' AND ')}` : '');
  if (!keys.length) return `SELECT t.id FROM ${q.table} t ${where(conditions)} ORDER BY t.id LIMIT ${p.add(q.limit)} OFFSET ${p.add(q.offset)}`;
  // An index (keys..., id) gives each branch its rows in id order: about a page read however they are
  // spread. `key = ANY(array)` has no such order (the planner sorts every match or walks the whole
  // primary key); values are bound per branch, not joined (LATERAL), so each is planned for its key.
  let combos: number[][] = [[]];
  for (const k of keys) combos = combos.flatMap((c) => k.values.map((v) => [...c, v]));
  const perBranch = p.add(q.offset + q.limit);
  const branches = combos.map(
    (combo) =>
      `(SELECT t.id FROM ${q.table} t ${where([...keys.map((k, i) => `t.${k.column} = ${p.add(combo[i])}`), ...conditions])} ORDER BY t.id LIMIT ${perBranch})`,
  );
  return `SELECT page.id FROM (${branches.join(' UNION ALL ')}) page ORDER BY page.id LIMIT ${p.add(q.limit)} OFFSET ${p.add(q.offset)}`;
}
