import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '../common/pg-errors';

/** Anything that runs a statement: the DataSource, an EntityManager, a query runner. */
export interface Queryable {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(sql: string, params?: unknown[]): Promise<any>;
}

/**
 * Where reads that tolerate replication lag go (PRODUCT.md: lead and call lists). With
 * `DATABASE_REPLICA_URLS` set, TypeORM keeps a pool per replica and `run` borrows one replica
 * connection for all statements of the read, so a page and its total come from the same
 * server. A replica that cannot be reached is not an outage: the read is served by the primary
 * and a warning logged. Without replicas, everything reads from the primary.
 * Writes, detail reads (an integrator reads back what it just wrote) and transactions never
 * come here.
 */
@Injectable()
export class ReadDatabase {
  private readonly logger = new Logger('ReadDatabase');
  private lastWarning = 0;

  constructor(private readonly ds: DataSource) {}

  get replicated(): boolean {
    return this.ds.driver.isReplicated;
  }

  async run<T>(read: (db: Queryable) => Promise<T>): Promise<T> {
    if (!this.replicated) return read(this.ds);
    const runner = this.ds.createQueryRunner('slave');
    try {
      return await read(runner);
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      if (Date.now() - this.lastWarning > 10_000) {
        this.lastWarning = Date.now();
        this.logger.warn(`Read replica unavailable, reading from the primary: ${err instanceof Error ? err.message : String(err)}`);
      }
      return read(this.ds);
    } finally {
      await runner.release().catch(() => undefined);
    }
  }
}
