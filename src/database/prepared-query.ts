import type { DataSource } from 'typeorm';
import type { Queryable } from './read-database';

/**
 * A hot read as a named prepared statement: PostgreSQL parses and plans it once per connection
 * (pg keeps the names it prepared on each client) instead of on every call, as TypeORM's unnamed
 * statements are. Only for statements whose text is fixed and whose plan does not depend on the
 * values (a lookup by primary key): a generic plan is then as good as a custom one.
 */
export interface PreparedStatement {
  /** Unique in the process: pg refuses one name for two texts on a connection. */
  readonly name: string;
  readonly text: string;
}

/** What can run a named statement itself: a pg Pool or client (`{name, text, values}` query config). */
interface PgQueryable {
  query(config: { name: string; text: string; values?: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** pg's pool of the primary behind a DataSource (TypeORM's postgres driver keeps it as `master`). */
function primaryPool(db: DataSource | Queryable): PgQueryable | null {
  const master = (db as { driver?: { master?: unknown } }).driver?.master;
  return master && typeof (master as PgQueryable).query === 'function' ? (master as PgQueryable) : null;
}

/**
 * Runs `statement` on the primary's pool as a named statement: one pool checkout, no TypeORM
 * query runner around it (no transaction may be open: this takes its own connection, so it is
 * only for reads outside one). Errors are pg's own, which the error filter classifies like
 * TypeORM's (pg-errors.ts reads both). Anything else that can run SQL gets the plain text.
 */
export async function queryPrepared<T>(db: DataSource | Queryable, statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  const pool = primaryPool(db);
  if (!pool) return (await db.query(statement.text, values)) as T[];
  return (await pool.query({ name: statement.name, text: statement.text, values })).rows as T[];
}
