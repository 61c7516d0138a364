import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { nextTurn } from '../../common/next-turn';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { ClientAccess } from '../../common/auth-context';
import { DomainError, FieldError } from '../../common/domain-error';
import { DATABASE_SOURCE, reportDatabaseError } from '../../common/outage-log';
import { databaseUnavailableReason } from '../../common/pg-errors';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { errorKind } from '../queue/domain/job-outcomes';
import type { JobOutcome } from '../queue/domain/queue-definition';
import { JobQueueService } from '../queue/job-queue.service';
import { InjectWorkerDataSource } from '../queue/persistence/worker-database';
import type { CreateLeadInput } from './domain/lead';
import { duplicateWindowStart } from './domain/lead-links';
import type { NewLead } from './domain/new-lead';
import { LeadPreparationService } from './lead-preparation.service';
import { AsyncJob, LeadAsyncJobsRepository } from './persistence/lead-async-jobs.repository';
import { BatchRow, LeadBulkRepository } from './persistence/lead-bulk.repository';
import { LeadsRepository } from './persistence/leads.repository';

export const LEAD_CREATE_QUEUE = 'lead.create';
/** Where pg-boss moves a lead.create job that failed for good without its handler settling the job row. */
export const LEAD_CREATE_DEAD_QUEUE = 'lead.create.dead';
/** Transient failures (database hiccups) are retried with backoff; validation failures never are. */
export const LEAD_CREATE_RETRY_LIMIT = 5;
/**
 * pg-boss's shortest heartbeat: a job whose worker stopped beating (the process died, or lost the
 * database mid-job and could not record the failure) is retried this long after its last beat,
 * not at its expiry.
 */
const LEAD_JOB_HEARTBEAT_SECONDS = 10;
/** How often a worker instance settles job rows the queue lost (see settleLostJobs). */
const LOST_JOB_SWEEP_MS = 60_000;
/**
 * Jobs a lead.create consumer claims per fetch and creates in one transaction. A 20,000-job
 * backlog drained by 2 workers: 6.7 s at 100, 4.5-5 s at 200 and at 500, 24.5 s one job at a
 * time; 200 holds fewer locks than 500.
 */
export const LEAD_CREATE_BATCH = 200;
/** Jobs validated between two yields to the event loop: a large batch never holds it for long. */
const JOBS_PER_TURN = 100;
const INTERNAL_FAILURE: FieldError[] = [{ field: '', message: 'the lead could not be created (internal error); send it again' }];

export interface AsyncJobView {
  jobId: string;
  status: AsyncJob['state'];
  leadId: number | null;
  errors: FieldError[];
  createdAt: Date;
  finishedAt: Date | null;
}

/** A validation failure's errors as a job records them (at least one). */
const jobErrors = (err: DomainError): FieldError[] => (err.fieldErrors.length ? err.fieldErrors : [{ field: '', message: err.message }]);

/**
 * Asynchronous creation (queue `lead.create`): the accepted job and its state, the worker that
 * creates its lead under the synchronous rules (LeadPreparationService.prepareLead), the
 * dead-letter queue and the sweeper that settle jobs the queue gave up on or lost.
 */
@Injectable()
export class LeadCreateJobsService implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Leads');
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly jobs: LeadAsyncJobsRepository,
    private readonly queue: JobQueueService,
    private readonly preparation: LeadPreparationService,
    private readonly repo: LeadsRepository,
    private readonly bulk: LeadBulkRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    /** The job handlers' own pool (worker-database.ts): every statement of the worker path runs there. */
    @InjectWorkerDataSource() private readonly workerDb: DataSource,
  ) {}

  onModuleInit(): void {
    // The dead-letter queue is registered (hence created) first: pg-boss wants it to exist.
    this.queue.register<object>({
      name: LEAD_CREATE_DEAD_QUEUE,
      neededConsumers: 1,
      options: { retryLimit: 3, retryDelay: 5, retryBackoff: true },
      handle: (job) => this.settleDeadJob(job.id),
    });
    this.queue.register<object>({
      name: LEAD_CREATE_QUEUE,
      neededConsumers: 1,
      // Bursts: a consumer drains up to LEAD_CREATE_BATCH jobs per fetch, creates their leads
      // set-based (processCreateJobs), and fetches again at once while full.
      batchSize: LEAD_CREATE_BATCH,
      options: {
        retryLimit: LEAD_CREATE_RETRY_LIMIT,
        retryBackoff: true,
        retryDelay: 1,
        retryDelayMax: 60,
        expireInSeconds: this.config.jobExpireSeconds,
        heartbeatSeconds: LEAD_JOB_HEARTBEAT_SECONDS,
        deadLetter: LEAD_CREATE_DEAD_QUEUE,
      },
      handle: (job) => this.processCreateJob(job.id, job.retryCount),
      handleBatch: (jobs) => this.processCreateJobs(jobs),
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.workers <= 0) return;
    // An outage is logged once (per source, common/outage-log.ts); any other failure as its codes.
    this.sweeper = setInterval(
      () => void this.settleLostJobs().catch((err: unknown) => reportDatabaseError(DATABASE_SOURCE, err, this.logger)),
      LOST_JOB_SWEEP_MS,
    );
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  /**
   * Asynchronous create: the job row and its queue entry commit together, so "accepted" means
   * durably queued. The worker applies exactly the synchronous rules, within the reach of the
   * key `apiKeyId` (its client): another client's order fails the job as an unknown order does.
   */
  async createLeadAsync(input: CreateLeadInput, access: ClientAccess, apiKeyId: number | null, idempotencyToken?: string): Promise<{ jobId: string }> {
    // A client key's order is checked at once (cached settings), so no job, and no failure event, ever names another client's order.
    if (access.clientId !== null && !(await this.preparation.reachableOrder(input.orderId, access))) {
      throw DomainError.invalidField('orderId', `order ${input.orderId} does not exist`);
    }
    // With Idempotency-Key the job id is fixed by the request: a retry that runs again finds its job.
    const jobId = idempotencyToken ?? randomUUID();
    // One statement: the row and its job commit together; a row that exists already enqueues nothing.
    await this.queue.sendWithRow(
      LEAD_CREATE_QUEUE,
      { orderId: input.orderId },
      jobId,
      this.jobs.insertStatement({ id: jobId, orderId: input.orderId, payload: input, apiKeyId }),
    );
    return { jobId };
  }

  /** A job `access` does not reach (LeadAsyncJobsRepository.findById) is a 404, as an unknown one. */
  async getAsyncJob(jobId: string, access: ClientAccess): Promise<AsyncJobView> {
    const job = await this.jobs.findById(jobId, access);
    if (!job) throw DomainError.notFound('Lead creation job', jobId);
    return { jobId: job.id, status: job.state, leadId: job.leadId, errors: job.errors, createdAt: job.createdAt, finishedAt: job.finishedAt };
  }

  /**
   * The worker side of an asynchronous create: invalid input marks the job failed (no retry); a transient error is thrown for
   * pg-boss to retry (failed on the last try). A job processed twice finds its lead by job id. Runs on the workers' pool, one
   * statement at a time: a job holds at most one connection.
   */
  async processCreateJob(jobId: string, retryCount = 0): Promise<void> {
    const db = this.workerDb.manager;
    const pending = await this.jobs.findPending(jobId, db);
    if (!pending || pending.state !== 'queued') return;
    try {
      let lead: NewLead;
      try {
        lead = await this.preparation.prepareLead(pending.payload as CreateLeadInput, { clientId: pending.clientId }, db);
      } catch (err) {
        if (err instanceof DomainError && err.kind === 'validation') {
          await this.jobs.markFailed(jobId, jobErrors(err), db);
          return;
        }
        throw err;
      }
      // One statement on the workers' pool: the job row locked while queued, the lead created and linked, the job done.
      await this.repo.insertLinkedForJob(this.workerDb, lead, { since: duplicateWindowStart(new Date(), this.config.leadDuplicateWindowDays), jobId });
    } catch (err) {
      if (retryCount >= LEAD_CREATE_RETRY_LIMIT) {
        // The error's class and code only: its message can quote the lead's values.
        this.logger.error(`lead job ${jobId} failed after ${retryCount + 1} attempts: ${errorKind(err)}`);
        await this.jobs.markFailed(jobId, INTERNAL_FAILURE, db);
        return;
      }
      throw err;
    }
  }

  /**
   * A fetch of asynchronous creates, set-based: jobs validated as processCreateJob does (invalid ones failed in one statement), valid ones
   * created in one transaction (insertJobBatch), one job alone through processCreateJob's single statement. On failure, an outage retries
   * every job; any other error may be one job's, so each is then processed alone. Holds at most one worker connection at a time.
   */
  async processCreateJobs(jobs: { id: string; retryCount: number }[]): Promise<JobOutcome[]> {
    if (jobs.length !== 1) {
      try {
        await this.createJobBatch(jobs.map((j) => j.id));
        return jobs.map(() => ({ ok: true }));
      } catch (error) {
        if (databaseUnavailableReason(error)) return jobs.map(() => ({ ok: false, error }));
        this.logger.warn(`lead job batch of ${jobs.length} failed, processing its jobs one by one: ${errorKind(error)}`);
      }
    }
    const outcomes: JobOutcome[] = [];
    for (const job of jobs) {
      try {
        await this.processCreateJob(job.id, job.retryCount);
        outcomes.push({ ok: true });
      } catch (error) {
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }

  /**
   * Belt and braces beside the dead-letter queue: marks `failed` every job row still `queued`
   * whose pg-boss job is no longer waiting or running (gone, failed, cancelled), so no accepted
   * job stays `queued` for ever. Returns how many were settled.
   */
  async settleLostJobs(): Promise<number> {
    return this.jobs.failOrphaned((ids) => this.queue.liveJobIds(LEAD_CREATE_QUEUE, ids, this.workerDb.manager), INTERNAL_FAILURE, this.workerDb.manager);
  }

  /** processCreateJobs' set-based path: throws (settling nothing but validation failures) if any statement fails. */
  private async createJobBatch(jobIds: string[]): Promise<void> {
    const db = this.workerDb.manager;
    const pending = await this.jobs.findPendingMany(jobIds, db);
    const rows: BatchRow[] = [];
    const invalid: { id: string; errors: FieldError[] }[] = [];
    // In acceptance order: the order the leads are linked in.
    for (const [index, job] of pending.entries()) {
      if (index > 0 && index % JOBS_PER_TURN === 0) await nextTurn();
      // Settled already: a job delivered again.
      if (job.state !== 'queued') continue;
      try {
        const lead = await this.preparation.prepareLead(job.payload as CreateLeadInput, { clientId: job.clientId }, db);
        rows.push({ index, lead, jobId: job.id });
      } catch (err) {
        if (!(err instanceof DomainError && err.kind === 'validation')) throw err;
        invalid.push({ id: job.id, errors: jobErrors(err) });
      }
    }
    await this.jobs.markFailedMany(invalid, db);
    if (rows.length === 0) return;
    const since = duplicateWindowStart(new Date(), this.config.leadDuplicateWindowDays);
    await this.workerDb.transaction((m) => this.bulk.insertJobBatch(m, rows, since));
  }

  /** A lead.create job pg-boss gave up on without its handler settling it (expired or lost on its last attempt). */
  private async settleDeadJob(deadJobId: string): Promise<void> {
    const dead = await this.queue.getJob(LEAD_CREATE_DEAD_QUEUE, deadJobId);
    if (dead?.sourceId) await this.jobs.markFailed(dead.sourceId, INTERNAL_FAILURE, this.workerDb.manager);
  }
}
