import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PgBoss, type Job, type JobResult, type Queue } from 'pg-boss';
import { DataSource, EntityManager } from 'typeorm';
import { DATABASE_SOURCE, reportDatabaseError } from '../../common/outage-log';
import { databaseUnavailableReason, sqlState } from '../../common/pg-errors';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { DATABASE_URL } from '../../database/tokens';
import { type PreparedStatement, queryPrepared } from '../../database/prepared-query';
import { withRowCte } from './persistence/row-with-job';

export interface QueueDefinition<T> {
  name: string;
  /** Consumers this queue needs across the fleet for the health check to pass. */
  neededConsumers: number;
  /**
   * Jobs a consumer claims per fetch (default 1). Above 1 a consumer keeps fetching without
   * waiting while batches come back full (bursts drain at handler speed, not one job per poll)
   * and settles each job on its own: a job whose handler throws is retried alone.
   */
  batchSize?: number;
  /** Queue options (retries, backoff, dead letter, ...) applied when the queue is created. */
  options?: Omit<Queue, 'name'>;
  handle(job: Job<T>): Promise<unknown>;
  /**
   * With `batchSize` above 1: the jobs of one fetch handled together (set-based work), instead of
   * `handle` once per job. Returns one outcome per job, in the jobs' order; a failed job is retried
   * (or dead-lettered) per the queue's options, on its own. A throw fails every job of the batch.
   * The batch's jobs are settled together either way: pg-boss completes them in one statement and
   * fails them in another.
   */
  handleBatch?(jobs: Job<T>[]): Promise<JobOutcome[]>;
}

/** A batch handler's verdict on one job: done (with its output, if any), or failed with its error. */
export type JobOutcome = { ok: true; output?: object } | { ok: false; error: unknown };

export interface QueueConsumerReport {
  queue_name: string;
  success: boolean;
  data: { current_consumers_count: number; needle_consumers_count: number; backlog: number };
}

/**
 * The merged statements of sendWithRow, by pg-boss's statement and the row's: built once, run as
 * named statements (pg-boss's insert is long; parsing and planning it was most of an accept's
 * PostgreSQL time). Module-wide, so a name always stands for one text on any connection.
 */
const mergedStatements = new Map<string, PreparedStatement | null>();

function mergedStatement(jobInsert: string, rowInsert: string): PreparedStatement | null {
  const key = `${rowInsert}\u0000${jobInsert}`;
  let statement = mergedStatements.get(key);
  if (statement === undefined) {
    const text = withRowCte(jobInsert, rowInsert);
    statement = text === null ? null : { name: `row_with_job_${mergedStatements.size + 1}`, text };
    mergedStatements.set(key, statement);
  }
  return statement;
}

const HEARTBEAT_MS = 10_000;
const HEARTBEAT_STALE_S = 35;
/**
 * An error as its class and code (`QueryFailedError 23505`, `Error ECONNREFUSED`), for log lines
 * about jobs: never its message, which can quote the values of a statement (a phone, a name).
 */
export function errorKind(err: unknown): string {
  if (!err || typeof err !== 'object') return typeof err;
  const ctor = err.constructor?.name;
  const own = (err as { name?: unknown }).name;
  const name = ctor && ctor !== 'Object' ? ctor : typeof own === 'string' ? own : 'error';
  const code = sqlState(err) ?? databaseUnavailableReason(err);
  return code ? `${name} ${code}` : name;
}

/**
 * A fetch's outcomes, one per job in the jobs' order: from the batch handler (a throw fails every
 * job), or each job's own `handle`, the jobs running concurrently, bounded by the pool their
 * handler uses (see worker-database.ts).
 */
export async function fetchOutcomes<T>(def: Pick<QueueDefinition<T>, 'handle' | 'handleBatch'>, jobs: Job<T>[]): Promise<JobOutcome[]> {
  if (def.handleBatch) {
    try {
      return await def.handleBatch(jobs);
    } catch (error) {
      return jobs.map(() => ({ ok: false, error }));
    }
  }
  return Promise.all(
    jobs.map(async (job): Promise<JobOutcome> => {
      try {
        return { ok: true, output: (await def.handle(job)) ?? undefined };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );
}

/**
 * pg-boss's per-job results for a fetch's outcomes (a job without one fails), and the failed jobs
 * by error. A failure's stored output is the error's class and code: its message can quote
 * statement values.
 */
export function settledResults<T>(jobs: Job<T>[], outcomes: JobOutcome[]): { results: JobResult[]; failures: Map<unknown, Job<T>[]> } {
  const failures = new Map<unknown, Job<T>[]>();
  const results = jobs.map((job, i): JobResult => {
    const outcome: JobOutcome = outcomes[i] ?? { ok: false, error: new Error('no outcome returned by the batch handler') };
    if (outcome.ok) return { id: job.id, status: 'completed', output: outcome.output };
    const failed = failures.get(outcome.error);
    if (failed) failed.push(job);
    else failures.set(outcome.error, [job]);
    return { id: job.id, status: 'failed', output: { error: errorKind(outcome.error) } };
  });
  return { results, failures };
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
  private readonly queues = new Map<string, QueueDefinition<unknown>>();
  private readonly instanceId = randomUUID();
  private heartbeat?: NodeJS.Timeout;
  private started = false;
  private closed = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE_URL) databaseUrl: string,
    private readonly ds: DataSource,
  ) {
    this.boss = new PgBoss({
      connectionString: databaseUrl,
      schema: 'pgboss',
      max: 4,
      application_name: 'callcenter-jobs',
      // The supervisor fails (hence retries) jobs past their expiry or heartbeat; its default minute
      // would leave a job whose worker died waiting that long after the database is back.
      superviseIntervalSeconds: config.jobSuperviseIntervalSeconds,
      monitorIntervalSeconds: config.jobSuperviseIntervalSeconds,
    });
    // pg-boss reports each failed poll of each worker (two a second per worker while the database is
    // down): an outage is logged once when it starts and once when its probe answers again.
    this.boss.on('error', (err: unknown) => reportDatabaseError('pg-boss', err, this.logger, () => this.probe()));
  }

  register<T>(def: QueueDefinition<T>): void {
    this.queues.set(def.name, def);
  }

  async onModuleInit(): Promise<void> {
    await this.boss.start();
    this.started = true;
  }

  async onApplicationBootstrap(): Promise<void> {
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
    if (this.config.workers <= 0) return;
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
    await this.beat();
    this.heartbeat = setInterval(() => void this.beat().catch((e: unknown) => reportDatabaseError(DATABASE_SOURCE, e, this.logger)), HEARTBEAT_MS);
    this.heartbeat.unref();
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
    this.closed = true;
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, timeout: 10_000 }).catch((e: Error) => this.logger.warn(`stop: ${e.message}`));
    await this.ds.query(`DELETE FROM queue_consumer WHERE instance_id = $1`, [this.instanceId]).catch(() => undefined);
  }

  /**
   * Enqueues a job. Given `manager` (an open transaction), the job is inserted in that transaction:
   * it exists exactly when the caller's writes commit.
   */
  async send<T extends object>(queue: string, data: T, options: { id?: string; manager?: EntityManager } = {}): Promise<string> {
    const db = options.manager
      ? { executeSql: async (text: string, values?: unknown[]) => ({ rows: await options.manager!.query<unknown[]>(text, values) }) }
      : undefined;
    const id = await this.boss.send(queue, data, { id: options.id, db });
    if (!id) throw new Error(`job for ${queue} was not created`);
    return id;
  }

  /**
   * Enqueues a job and writes one row of the caller's in ONE statement: `row` (an INSERT ...
   * ON CONFLICT DO NOTHING RETURNING, placeholders from $1) runs as a data-modifying CTE of
   * pg-boss's own insert, and the job is inserted only if the row was (a row that exists
   * already, e.g. a retried request with a fixed id, enqueues nothing). Both commit together or
   * not at all, as `send` in a transaction, in one round trip instead of four (BEGIN, row, job,
   * COMMIT). Returns whether the job was enqueued (false: the row existed already). Should
   * pg-boss's statement ever not have the shape this relies on, it falls back to that transaction.
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
    const db = options.manager
      ? { executeSql: async (text: string, values?: unknown[]) => ({ rows: await options.manager!.query<unknown[]>(text, values) }) }
      : undefined;
    await this.boss.insert(
      queue,
      items.map((data) => ({ data })),
      { db },
    );
  }

  private async beat(): Promise<void> {
    const names = [...this.queues.keys()];
    if (names.length === 0) return;
    await this.ds.query(
      `INSERT INTO queue_consumer (instance_id, queue_name, consumers, seen_at)
       SELECT $1, unnest($2::text[]), $3, now()
       ON CONFLICT (instance_id, queue_name) DO UPDATE SET consumers = EXCLUDED.consumers, seen_at = now()`,
      [this.instanceId, names, this.config.workers],
    );
  }

  /**
   * Fleet-wide consumer counts (from heartbeats) and backlog per registered queue, in one round trip.
   * Backlog = jobs waiting to run (created or retry), counted exactly through pg-boss's own partial
   * index on waiting jobs (its cached queue statistics lag by up to a minute).
   */
  async report(): Promise<QueueConsumerReport[]> {
    const names = [...this.queues.keys()];
    if (names.length === 0) return [];
    const rows: { name: string; consumers: number; backlog: number }[] = await this.ds.query(
      `SELECT q.name,
              (SELECT coalesce(sum(consumers), 0)::int FROM queue_consumer c
                WHERE c.queue_name = q.name AND c.seen_at > now() - make_interval(secs => $2)) AS consumers,
              (SELECT count(*)::int FROM pgboss.job j WHERE j.name = q.name AND j.state < 'active') AS backlog
       FROM unnest($1::text[]) AS q(name)`,
      [names, HEARTBEAT_STALE_S],
    );
    return rows.map((r) => {
      const needed = this.queues.get(r.name)!.neededConsumers;
      return {
        queue_name: r.name,
        success: r.consumers >= needed,
        data: { current_consumers_count: r.consumers, needle_consumers_count: needed, backlog: r.backlog },
      };
    });
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
