import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PgBoss, type Job, type JobResult } from 'pg-boss';
import { DataSource, EntityManager } from 'typeorm';
import { DATABASE_SOURCE, reportDatabaseError } from '../../common/outage-log';
import { databaseUnavailableReason } from '../../common/pg-errors';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { DATABASE_URL } from '../../database/tokens';
import { queryPrepared } from '../../database/prepared-query';
import { errorKind, fetchOutcomes, settledResults } from './domain/job-outcomes';
import { consumerReport, QueueConsumerReport, QueueDefinition } from './domain/queue-definition';
import { QueueRepository } from './persistence/queue.repository';
import { mergedStatement } from './persistence/row-with-job';
import { JobQueueDatabase } from './job-queue-database';

const HEARTBEAT_MS = 10_000;
const HEARTBEAT_STALE_S = 35;

/** pg-boss's `db` option for a caller's transaction: its statements then run on `m`. */
function inTransaction(m: EntityManager | undefined) {
  return m ? { executeSql: async (text: string, values?: unknown[]) => ({ rows: await m.query<unknown[]>(text, values) }) } : undefined;
}

/**
 * The job queue: pg-boss on our own PostgreSQL (schema `pgboss`), so a job is as durable
 * as the row that asked for it. Modules register their queues in `onModuleInit`; workers
 * start once the application is bootstrapped, only where `WORKERS` > 0.
 */
@Injectable()
export class JobQueueService implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('JobQueue');
  private readonly boss: PgBoss;
  private readonly db: JobQueueDatabase;
  private readonly queues = new Map<string, QueueDefinition<unknown>>();
  private readonly instanceId = randomUUID();
  private heartbeat?: NodeJS.Timeout;
  private started = false;
  private closed = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE_URL) databaseUrl: string,
    private readonly ds: DataSource,
    private readonly repo: QueueRepository,
  ) {
    // pg-boss reports each failed poll of each worker (two a second per worker while the database is
    // down): an outage is logged once when it starts and once when its probe answers again.
    const report = (err: unknown) => reportDatabaseError('pg-boss', err, this.logger, () => this.probe());
    this.db = new JobQueueDatabase({ connectionString: databaseUrl, max: 4, application_name: 'callcenter-jobs' }, report);
    this.boss = new PgBoss({
      db: this.db,
      schema: 'pgboss',
      // The supervisor fails (hence retries) jobs past their expiry or heartbeat; its default minute
      // would leave a job whose worker died waiting that long after the database is back.
      superviseIntervalSeconds: config.jobSuperviseIntervalSeconds,
      monitorIntervalSeconds: config.jobSuperviseIntervalSeconds,
    });
    this.boss.on('error', report);
  }

  register<T>(def: QueueDefinition<T>): void {
    this.queues.set(def.name, def);
  }

  async onModuleInit(): Promise<void> {
    await this.boss.start();
    this.started = true;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.createOrUpdateQueues();
    if (this.config.workers <= 0) return;
    await this.startWorkers();
    await this.beat();
    this.heartbeat = setInterval(() => void this.beat().catch((e: unknown) => reportDatabaseError(DATABASE_SOURCE, e, this.logger)), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private async createOrUpdateQueues(): Promise<void> {
    for (const def of this.queues.values()) {
      if (!(await this.boss.getQueue(def.name))) {
        await this.boss.createQueue(def.name, def.options ?? {});
      } else if (def.options) {
        // Settings from configuration (retry limits, delays) apply to an existing queue too, not
        // only to a fresh database. Policy and partitioning are fixed once a queue exists.
        const { policy: _policy, partition: _partition, ...changeable } = def.options as Record<string, unknown>;
        await this.boss.updateQueue(def.name, changeable);
      }
    }
  }

  private async startWorkers(): Promise<void> {
    for (const def of this.queues.values()) {
      const batchSize = def.batchSize ?? 1;
      if (batchSize <= 1) {
        await this.boss.work(def.name, { localConcurrency: this.config.workers, batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => def.handle(job));
        continue;
      }
      await this.boss.work(
        def.name,
        { localConcurrency: this.config.workers, batchSize, burstWhenBatchFull: true, perJobResults: true, pollingIntervalSeconds: 0.5 },
        async (jobs) => this.handleFetch(def, jobs),
      );
    }
  }

  /**
   * pg-boss's per-job results of a fetch (fetchOutcomes, settledResults), its failures logged by
   * job, one line for the jobs one error failed together (a batch).
   */
  private async handleFetch<T>(def: QueueDefinition<T>, jobs: Job<T>[]): Promise<JobResult[]> {
    const { results, failures } = settledResults(jobs, await fetchOutcomes(def, jobs));
    for (const [err, failed] of failures) {
      // A database outage is logged once for all of its failures (outage-log.ts), not once per job.
      if (databaseUnavailableReason(err)) reportDatabaseError(DATABASE_SOURCE, err, this.logger);
      else if (failed.length === 1) this.logger.warn(`${def.name} job ${failed[0].id} attempt ${failed[0].retryCount + 1} failed: ${errorKind(err)}`);
      else this.logger.warn(`${def.name}: ${failed.length} jobs of a batch failed (first ${failed[0].id}): ${errorKind(err)}`);
    }
    return results;
  }

  async onModuleDestroy(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.closed) return;
    this.closed = true;
    if (this.started) {
      this.started = false;
      await this.boss.stop({ graceful: true, timeout: 10_000 }).catch((e: Error) => this.logger.warn(`stop: ${e.message}`));
      await this.repo.forgetInstance(this.instanceId).catch(() => undefined);
    }
    // pg-boss stopped: the pool it used is the service's to close.
    await this.db.close();
  }

  /**
   * Enqueues a job. Given `manager` (an open transaction), the job is inserted in that transaction:
   * it exists exactly when the caller's writes commit.
   */
  async send<T extends object>(queue: string, data: T, options: { id?: string; manager?: EntityManager } = {}): Promise<string> {
    const id = await this.boss.send(queue, data, { id: options.id, db: inTransaction(options.manager) });
    if (!id) throw new Error(`job for ${queue} was not created`);
    return id;
  }

  /**
   * Enqueues a job and writes a row of the caller's in one statement: `row` (INSERT ... ON CONFLICT DO NOTHING RETURNING, placeholders from
   * $1) runs as a CTE of pg-boss's insert, which adds the job only if the row was inserted; one round trip instead of four. Returns whether
   * the job was enqueued; if pg-boss's statement lacks the expected shape, falls back to a transaction.
   */
  async sendWithRow<T extends object>(queue: string, data: T, id: string, row: { sql: string; values: unknown[] }): Promise<boolean> {
    let shaped = true;
    const db = {
      executeSql: async (text: string, values?: unknown[]) => {
        const merged = values?.length === 1 ? mergedStatement(text, row.sql) : null;
        if (!merged) {
          shaped = false;
          return { rows: [] };
        }
        return { rows: await queryPrepared(this.ds, merged, [values![0], ...row.values]) };
      },
    };
    // Null when nothing was inserted: the row existed already (then no job either).
    const created = await this.boss.send(queue, data, { id, db });
    if (shaped) return created !== null;
    return this.ds.transaction(async (m) => {
      if ((await m.query<unknown[]>(row.sql, row.values)).length === 0) return false;
      await this.send(queue, data, { id, manager: m });
      return true;
    });
  }

  /**
   * Enqueues many jobs with one statement (pg-boss `insert`, the queue's retry options apply),
   * in the caller's transaction when `manager` is given, like `send`.
   */
  async sendMany<T extends object>(queue: string, items: T[], options: { manager?: EntityManager } = {}): Promise<void> {
    if (items.length === 0) return;
    await this.boss.insert(
      queue,
      items.map((data) => ({ data })),
      { db: inTransaction(options.manager) },
    );
  }

  private async beat(): Promise<void> {
    const names = [...this.queues.keys()];
    if (names.length === 0) return;
    await this.repo.beat(this.instanceId, names, this.config.workers);
  }

  /** Fleet-wide consumer counts (from heartbeats) and exact backlog per registered queue, in one round trip. */
  async report(): Promise<QueueConsumerReport[]> {
    const names = [...this.queues.keys()];
    if (names.length === 0) return [];
    const rows = await this.repo.consumersAndBacklog(names, HEARTBEAT_STALE_S);
    return rows.map((r) => consumerReport(r.name, r.consumers, this.queues.get(r.name)!.neededConsumers, r.backlog));
  }

  /**
   * Those of `ids` whose job in `queue` is still waiting or running (not completed, failed, cancelled
   * or gone), on `m` when given: for a module that settles its own rows of jobs the queue lost.
   */
  liveJobIds(queue: string, ids: readonly string[], m?: EntityManager): Promise<Set<string>> {
    return this.repo.liveJobIds(queue, ids, m);
  }

  /** Whether pg-boss's own pool reaches the database; a closed queue answers no (and its outage probe stops). */
  private probe(): Promise<unknown> {
    return this.closed ? Promise.reject(new Error('job queue closed')) : this.boss.getDb().executeSql('SELECT 1');
  }

  /** For tests and the job-status endpoint. */
  getJob(queue: string, id: string) {
    return this.boss.getJobById(queue, id);
  }
}
