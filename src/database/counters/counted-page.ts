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
 * The ids of one page of `table`, ordered by id, as a subquery: rows matching `keys` (each key =
 * one of its values), `conditions` (on alias `t`) and the id bounds.
 *
 * With keys, each combination of key values is read by its own branch, `key = value` for each
 * key, at most `offset + limit` rows in id order, and the branches are merged by id. An index
 * leading with the keys and ending with the id gives a branch its rows in order, so it reads
 * about one page however its rows are spread over the table. `key = ANY(array)` would not do:
 * that index's order is (key, id), not id, so the planner either sorts every matching row or
 * walks the primary key from the lower bound, and when an order's leads lie at both ends of a
 * huge id range (a campaign paused and resumed) that walk reads the whole table (issue 9: 282 ms
 * per page at 1M leads). Values are bound per branch, not joined from an array (LATERAL): with
 * the value unknown, the planner costs an average key and chose the primary-key walk for a small
 * order (12k rows filtered for a page). The keys are tried in the order given; when their
 * combinations exceed MAX_KEY_COMBINATIONS, the last keys become `= ANY` conditions.
 */
export function pageIdsQuery(p: SqlParams, q: { table: string; keys: PageKey[]; conditions: string[]; ids?: IdBounds; offset: number; limit: number }): string {
  const keys = q.keys.filter((k) => k.values.length > 0).map((k) => ({ ...k, values: [...new Set(k.values)] }));
  const conditions = [...q.conditions, ...idBoundConditions(p, q.ids, 't.id')];
  while (keys.length && keys.reduce((n, k) => n * k.values.length, 1) > MAX_KEY_COMBINATIONS) {
    const k = keys.pop()!;
    conditions.push(`t.${k.column} = ANY(${p.add(k.values)}::int[])`);
  }
  const where = (conds: string[]) => (conds.length ? `WHERE ${conds.join(' AND ')}` : '');
  if (!keys.length) return `SELECT t.id FROM ${q.table} t ${where(conditions)} ORDER BY t.id LIMIT ${p.add(q.limit)} OFFSET ${p.add(q.offset)}`;
  let combos: number[][] = [[]];
  for (const k of keys) combos = combos.flatMap((c) => k.values.map((v) => [...c, v]));
  const perBranch = p.add(q.offset + q.limit);
  const branches = combos.map(
    (combo) =>
      `(SELECT t.id FROM ${q.table} t ${where([...keys.map((k, i) => `t.${k.column} = ${p.add(combo[i])}`), ...conditions])} ORDER BY t.id LIMIT ${perBranch})`,
  );
  return `SELECT page.id FROM (${branches.join(' UNION ALL ')}) page ORDER BY page.id LIMIT ${p.add(q.limit)} OFFSET ${p.add(q.offset)}`;
}
