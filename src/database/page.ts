import { FindManyOptions, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import { Page, toPage } from '../common/envelope';
import type { Queryable } from './read-database';

/** Placeholders of the page's offset and limit (the two parameters after the filter's). */
export interface PagePlaceholders {
  offset: string;
  limit: string;
}

/**
 * The statement counting a filter's rows (`SELECT count(*)::int AS n`, which may read fewer tables than the list) and the one
 * listing them in order: a statement the helper ends with OFFSET and LIMIT, or a function placing them itself. Both take `params`.
 */
export interface SqlPageQuery {
  db: Queryable;
  count: string;
  select: string | ((page: PagePlaceholders) => string);
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
 * TypeORM's getManyAndCount / findAndCount, or the SQL pair (count, then the page when it can
 * hold rows). Lists whose total comes from counters use countedPage (database/counters) instead.
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
  // One after the other (`db` may be a transaction's manager, whose one connection runs one query at
  // a time), the count first: a page past the end costs no list statement.
  const counted = (await query.db.query(query.count, params)) as { n: number | string }[];
  const total = Number(counted[0].n);
  if (offset >= total) return toPage([], offset, total);
  const at = { offset: `$${params.length + 1}`, limit: `$${params.length + 2}` };
  const select = typeof query.select === 'string' ? `${query.select} OFFSET ${at.offset} LIMIT ${at.limit}` : query.select(at);
  const rows = (await query.db.query(select, [...params, offset, limit])) as T[];
  return toPage(rows, offset, total);
}
