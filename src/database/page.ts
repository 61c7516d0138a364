import { FindManyOptions, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import { Page, toPage } from '../common/envelope';
import type { Queryable } from './read-database';

/**
 * A statement listing rows in order (no OFFSET/LIMIT: the page helper adds them as the last two
 * parameters) and the statement counting the rows of the same filter (`SELECT count(*)::int AS n`),
 * which may read fewer tables than the list when that gives the same number.
 */
export interface SqlPageQuery {
  db: Queryable;
  select: string;
  count: string;
  params?: unknown[];
}

/** Repository find options for a page; `skip` and `take` come from the page helper. */
export interface FindPageQuery<T extends ObjectLiteral> {
  repository: Repository<T>;
  find: Omit<FindManyOptions<T>, 'skip' | 'take'>;
}

/** What a list is read from: a query builder, repository find options, or plain SQL. */
export type PageQuery<T extends ObjectLiteral> = SelectQueryBuilder<T> | FindPageQuery<T> | SqlPageQuery;

/**
 * One page of a list and the total of its filter, in the API's page shape, whatever reads it:
 * TypeORM's getManyAndCount / findAndCount, or the SQL pair run side by side (two statements,
 * as the ORM's pair is: list queries' counts stay what the tests assert). Lists whose total comes
 * from counters use countedPage (database/counters) instead.
 */
export async function findPage<T extends ObjectLiteral>(query: PageQuery<T>, offset: number, limit: number): Promise<Page<T>> {
  if (query instanceof SelectQueryBuilder) {
    const [rows, total] = await query.skip(offset).take(limit).getManyAndCount();
    return toPage(rows, offset, total);
  }
  if ('repository' in query) {
    const [rows, total] = await query.repository.findAndCount({ ...query.find, skip: offset, take: limit });
    return toPage(rows, offset, total);
  }
  const params = query.params ?? [];
  // One after the other: `db` may be a transaction's manager, whose one connection runs one query at a time.
  const rows = (await query.db.query(`${query.select} OFFSET $${params.length + 1} LIMIT $${params.length + 2}`, [...params, offset, limit])) as T[];
  const counted = (await query.db.query(query.count, params)) as { n: number | string }[];
  return toPage(rows, offset, Number(counted[0].n));
}
