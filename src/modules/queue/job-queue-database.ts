import { Pool, type PoolConfig } from 'pg';
import type { Db } from 'pg-boss';
import { guardPool } from '../../database/open-data-source';

/**
 * pg-boss's database (its `db` option): a pg pool of the service's own. Every connection it opens gets an `error` listener as
 * it is made (guardPool), as the TypeORM pools' do: a server that ends a connection while it is being made (a restart, an
 * outage) fails that connection's query instead of crashing the process. pg-boss's built-in pool leaves that gap.
 */
export class JobQueueDatabase implements Db {
  private readonly pool: Pool;

  constructor(config: PoolConfig, onIdleError: (err: Error) => void) {
    this.pool = new Pool({ connectionTimeoutMillis: 10_000, ...config });
    // An idle connection the server ends: the outage it belongs to is reported once (reportDatabaseError).
    this.pool.on('error', onIdleError);
    guardPool(this.pool);
  }

  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
    return this.pool.query(text, values);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
