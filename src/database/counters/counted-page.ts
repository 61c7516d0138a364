import { Page, toPage } from '../../common/envelope';
import type { CountStats } from './counter-set';
import { SqlParams } from './sql-params';

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
