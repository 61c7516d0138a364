import { reportDatabaseError } from '../common/outage-log';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '../common/pg-errors';

/** Anything that runs a statement: the DataSource, an EntityManager, a query runner. */
export interface Queryable {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(sql: string, params?: unknown[]): Promise<any>;
}

/**
 * Where reads that tolerate replication lag go (PRODUCT.md: lead and call lists). With replicas, `run` borrows one replica
 * connection for all statements of the read, so a page and its total agree; an unreachable replica falls back to the primary
 * with a warning. Writes, detail reads (read-your-writes) and transactions never come here.
 */
@Injectable()
export class ReadDatabase {
  private readonly logger = new Logger('ReadDatabase');

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
      // Logged once when the replica is lost and once when it answers again, not once per read.
      reportDatabaseError('replica', err, this.logger, () => this.probeReplica());
      return read(this.ds);
    } finally {
      await runner.release().catch(() => undefined);
    }
  }

  private async probeReplica(): Promise<void> {
    const runner = this.ds.createQueryRunner('slave');
    try {
      await runner.query('SELECT 1');
    } finally {
      await runner.release().catch(() => undefined);
    }
  }
}
