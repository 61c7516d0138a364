import type { EventEmitter } from 'node:events';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { guardPool } from './open-data-source';
import type { Queryable } from './read-database';

/**
 * A hot statement as a named prepared statement: PostgreSQL parses it once per connection instead of on every call, and may keep
 * its plan. Only for fixed texts whose plan does not depend on the values (a lookup by primary key, a function call), where a
 * generic plan is as good as a custom one.
 */
export interface PreparedStatement {
  /** Unique in the process: pg refuses one name for two texts on a connection. */
  readonly name: string;
  readonly text: string;
}

/** What runs a named statement itself: pg's pool (`{name, text, values}` query config). */
interface PgQueryable {
  query(config: { name: string; text: string; values?: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * The pool to run a named statement on: the primary's behind a DataSource (TypeORM's postgres
 * driver keeps it as `master`), or a pg Pool given as such. Never an EntityManager's or a query
 * runner's: they may hold a transaction, which a statement on the pool would escape.
 */
function poolOf(db: DataSource | Queryable | Pool): PgQueryable | null {
  if (db instanceof Pool) return db;
  if (!(db instanceof DataSource)) return null;
  const master = (db.driver as unknown as { master?: PgQueryable & EventEmitter }).master;
  if (!master || typeof master.query !== 'function') return null;
  // pool.query hands out new clients too: none may meet a FATAL without a listener (see guardNewConnections).
  guardPool(master);
  return master;
}

/**
 * Runs `statement` as a named statement on a DataSource's primary pool or a pg Pool: one checkout, no TypeORM query runner, for a
 * statement that is its own transaction (errors are pg's, which pg-errors.ts reads too). An EntityManager or query runner runs
 * the plain text on its own connection.
 */
export async function queryPrepared<T>(db: DataSource | Queryable | Pool, statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  const pool = poolOf(db);
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it: pg's Pool.query overloads are not callable on the union
  if (!pool) return (await (db as Queryable).query(statement.text, values)) as T[];
  return (await pool.query({ name: statement.name, text: statement.text, values })).rows as T[];
}
