import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { DomainError, FieldError } from '../../common/domain-error';
import { DATABASE_SOURCE, reportDatabaseError } from '../../common/outage-log';
import { Page } from '../../common/envelope';
import { countedPage } from '../../database/counters/counted-page';
import { ReadDatabase } from '../../database/read-database';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { CustomFieldsService } from '../custom-fields/custom-fields.service';
import { OrdersService } from '../orders/orders.service';
import { databaseUnavailableReason } from '../../common/pg-errors';
import { errorKind } from '../queue/domain/job-outcomes';
import type { JobOutcome } from '../queue/domain/queue-definition';
import { JobQueueService } from '../queue/job-queue.service';
import { InjectWorkerDataSource } from '../queue/persistence/worker-database';
import { CreateLeadInput, Lead, LeadFilter, LeadForCall, UpdateLeadInput } from './domain/lead';
import { leadUpdate, LeadUpdate } from './domain/lead-changes';
import type { LeadStatus } from './domain/lead-status';
import { duplicateWindowStart } from './domain/lead-links';
import { buildNewLead, NewLead, OrderSettings, planCall } from './domain/new-lead';
import { entersQualified, orderDayBounds, qualifiedAtAfter, withinDailyLimit } from './domain/qualified-limit';
import { countryTimeZone, orderZone, wholeHourOffset, zoneOf } from '../orders/domain/time-zone';
import { StatusCataloguesService } from './status-catalogues.service';
import { AsyncJob, LeadAsyncJobsRepository } from './persistence/lead-async-jobs.repository';
import { BatchRow, LeadBulkRepository } from './persistence/lead-bulk.repository';
import { LeadChanges, LeadForUpdate, LeadsRepository } from './persistence/leads.repository';
import { LEAD_ERRORS } from './domain/leads.errors';

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
 * time (bench/results/20261124-0104-async-batch-backlog.md); 200 holds fewer locks than 500.
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

/**
 * Lead use cases. v1 and v2 controllers both call these; the rules live in domain/ and here.
 * The create path is lean: reads that need no lock (order settings, statuses, custom field
 * definitions: short caches) happen before the transaction; the transaction takes the
 * (order, phone) lock, finds the previous lead, inserts and links in one statement.
 */
@Injectable()
export class LeadsService implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Leads');
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly ds: DataSource,
    private readonly repo: LeadsRepository,
    private readonly jobs: LeadAsyncJobsRepository,
    private readonly statuses: StatusCataloguesService,
    private readonly orders: OrdersService,
    private readonly customFields: CustomFieldsService,
    private readonly queue: JobQueueService,
    private readonly bulk: LeadBulkRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly read: ReadDatabase,
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
   * Synchronous create: validated, linked to its previous lead, planned; returns the id.
   * `idempotencyToken` (from `Idempotency-Key`) is stored as the lead's job id, unique per order:
   * a retry that runs again (its idempotency record lost) finds the lead instead of adding one.
   */
  async createLead(input: CreateLeadInput, idempotencyToken?: string): Promise<{ id: number }> {
    const lead = await this.prepareLead(input);
    // One statement, its own transaction: lead_create holds the phone lock until it commits.
    const id = await this.createLinked(this.ds, lead, idempotencyToken ?? null);
    return { id };
  }

  /**
   * Asynchronous create: the job row and its queue entry commit together, so "accepted" means
   * durably queued. The worker applies exactly the synchronous rules.
   */
  async createLeadAsync(input: CreateLeadInput, apiKeyId: number | null, idempotencyToken?: string): Promise<{ jobId: string }> {
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

  async getAsyncJob(jobId: string): Promise<AsyncJobView> {
    const job = await this.jobs.findById(jobId);
    if (!job) throw DomainError.notFound('Lead creation job', jobId);
    return { jobId: job.id, status: job.state, leadId: job.leadId, errors: job.errors, createdAt: job.createdAt, finishedAt: job.finishedAt };
  }

  /**
   * The worker side of an asynchronous create. Invalid input marks the job failed (no retry);
   * a transient error is thrown for pg-boss to retry, and marks the job failed on the last try.
   * A job processed twice (a retry after a lost acknowledgement) finds its lead by job id.
   * Runs on the workers' pool, one statement at a time: a job holds at most one connection.
   */
  async processCreateJob(jobId: string, retryCount = 0): Promise<void> {
    const db = this.workerDb.manager;
    const pending = await this.jobs.findPending(jobId, db);
    if (!pending || pending.state !== 'queued') return;
    try {
      let lead: NewLead;
      try {
        lead = await this.prepareLead(pending.payload as CreateLeadInput, db);
      } catch (err) {
        if (err instanceof DomainError && err.kind === 'validation') {
          await this.jobs.markFailed(jobId, err.fieldErrors.length ? err.fieldErrors : [{ field: '', message: err.message }], db);
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
   * The worker side of a fetch of asynchronous creates, set-based: the job rows read in one
   * query, each still queued job validated as processCreateJob does (the invalid ones marked
   * failed with their errors in one statement), then every valid one created in one transaction
   * (LeadBulkRepository.insertJobBatch: linked as if created one by one in the order the jobs
   * were accepted; a job whose lead exists already finds it; each job marked done with its
   * lead). One job alone takes processCreateJob's single statement, one round trip instead of a
   * transaction's six. Outcomes are per job, in order.
   * If the batch fails, an outage fails (retries) every job; any other error may be one job's
   * doing, so each job is then processed alone and settles on its own (retry limit included).
   * Runs on the workers' pool, one statement at a time: a batch holds at most one connection.
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

  /** processCreateJobs' set-based path: throws (settling nothing but validation failures) if any statement fails. */
  private async createJobBatch(jobIds: string[]): Promise<void> {
    const db = this.workerDb.manager;
    const pending = await this.jobs.findPendingMany(jobIds, db);
    const rows: BatchRow[] = [];
    const invalid: { id: string; errors: FieldError[] }[] = [];
    // In acceptance order: the order the leads are linked in.
    for (const [index, job] of pending.entries()) {
      if (index > 0 && index % JOBS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      // Settled already: a job delivered again.
      if (job.state !== 'queued') continue;
      try {
        rows.push({ index, lead: await this.prepareLead(job.payload as CreateLeadInput, db), jobId: job.id });
      } catch (err) {
        if (!(err instanceof DomainError && err.kind === 'validation')) throw err;
        invalid.push({ id: job.id, errors: err.fieldErrors.length ? err.fieldErrors : [{ field: '', message: err.message }] });
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

  /**
   * Belt and braces beside the dead-letter queue: marks `failed` every job row still `queued`
   * whose pg-boss job is no longer waiting or running (gone, failed, cancelled), so no accepted
   * job stays `queued` for ever. Returns how many were settled.
   */
  async settleLostJobs(): Promise<number> {
    return this.jobs.failOrphaned((ids) => this.queue.liveJobIds(LEAD_CREATE_QUEUE, ids, this.workerDb.manager), INTERNAL_FAILURE, this.workerDb.manager);
  }

  /**
   * Every create rule that needs no lock; throws one validation error listing every problem.
   * The reads (usually cache hits) run one after another, on `m` when given (the workers' pool).
   */
  async prepareLead(input: CreateLeadInput, m?: EntityManager): Promise<NewLead> {
    const order = await this.orders.getOrderSettings(input.orderId, m);
    const statuses = await this.statuses.leadStatuses(m);
    const custom = await this.validateCustomValues(input.customValues, m);
    const built = buildNewLead(input, { order, statuses, customValues: custom.value, now: new Date() });
    const errors = [...(built.ok ? [] : built.errors), ...custom.errors];
    if (!built.ok || errors.length) throw DomainError.validation(errors);
    return built.lead;
  }

  /**
   * In `m`'s transaction (or as a statement of its own): the (order, phone) lock serialises creates
   * of one phone, so the lead found as previous is the latest committed one and exactly one new
   * lead links to it (one round trip: LeadsRepository.insertLinked).
   */
  private createLinked(m: EntityManager | DataSource, lead: NewLead, jobId: string | null): Promise<number> {
    const since = duplicateWindowStart(new Date(), this.config.leadDuplicateWindowDays);
    return this.repo.insertLinked(m, lead, { since, jobId });
  }

  /**
   * For the calls module, in its transaction `m`: the lead a call is recorded against, locked until
   * `m` ends (null when there is none), and then its attempt count and next call. The lead table is
   * written by this module only.
   */
  lockForCall(m: EntityManager, leadId: number): Promise<LeadForCall | null> {
    return this.repo.lockForCall(m, leadId);
  }

  recordCallAttempt(m: EntityManager, leadId: number, attemptCount: number, planningCallAt: Date | null): Promise<void> {
    return this.repo.recordCallAttempt(m, leadId, attemptCount, planningCallAt);
  }

  async getLead(id: number): Promise<Lead> {
    const lead = await this.repo.findById(id);
    if (!lead) throw DomainError.notFound('Lead', id);
    return lead;
  }

  /**
   * A page and its exact total. The counters answer first: they give the total and the id range
   * the matching leads occupy, so the page query reads about one page of the id index however
   * far into a large order the matches lie (and is skipped when nothing can match).
   */
  async listLeads(filter: LeadFilter, offset: number, limit: number): Promise<Page<Lead>> {
    const filtered = !!(filter.orderIds?.length || filter.statusIds?.length || filter.createdFrom || filter.createdTo);
    // Lag-tolerant: served by a read replica when configured (page and total from the same one).
    return this.read.run(async (db) =>
      countedPage(await this.repo.stats(db, filter), offset, (ids) => this.repo.listPage(db, filter, offset, limit, filtered ? ids : undefined)),
    );
  }

  /** Partial update: only the fields sent change. The rules are leadUpdate's (shared with create); applyUpdate writes them. */
  async updateLead(id: number, input: UpdateLeadInput): Promise<void> {
    const statuses = input.statusId !== undefined ? await this.statuses.leadStatuses() : [];
    const custom = await this.validateCustomValues(input.customValues);
    const update = leadUpdate(input, { statuses, customValues: input.customValues !== undefined ? custom.value : undefined });
    const errors = [...custom.errors, ...(update.ok ? [] : update.errors)];
    if (!update.ok || errors.length) throw DomainError.validation(errors);
    await this.ds.transaction((m) => this.applyUpdate(m, id, update.value, statuses));
  }

  /**
   * The update's transaction: the lead locked (lockForChange), then what depends on what it holds:
   * the status move (and the qualified limit it may reach), its zone and the next call kept in the
   * schedule; one UPDATE.
   */
  private async applyUpdate(m: EntityManager, id: number, update: LeadUpdate, statuses: readonly LeadStatus[]): Promise<void> {
    const changes: LeadChanges = { ...update.changes };
    const current = await this.lockForChange(m, id, changes.phone);
    const now = new Date();
    let order: OrderSettings | null | undefined;
    const orderSettings = async () => {
      // On the transaction's connection: a second one from the pool while this holds the row lock can wait for ever.
      if (order === undefined) order = await this.orders.getOrderSettings(current.orderId, m);
      return order;
    };

    if (update.status && update.status.id !== current.statusId) {
      const from = statuses.find((s) => s.id === current.statusId)?.category ?? 'in-progress';
      if (entersQualified(from, update.status.category)) await this.checkQualifiedLimit(m, current.orderId, await orderSettings(), now);
      changes.statusId = update.status.id;
      changes.qualifiedAt = qualifiedAtAfter(from, update.status.category, current.qualifiedAt, now);
    }
    const newPhoneCountry = changes.phone !== undefined && changes.phone !== current.phone ? update.phoneCountry : undefined;
    const zone = nextLeadZone(current, { timeZone: update.timeZone, utcOffset: update.utcOffset }, newPhoneCountry, now);
    if (zone.timeZone !== current.timeZone || zone.utcOffset !== current.utcOffset) {
      if (zone.utcOffset !== current.utcOffset) changes.utcOffset = zone.utcOffset;
      if (zone.timeZone !== current.timeZone) changes.timeZone = zone.timeZone;
      // The lead's local time moved: keep its next call inside the schedule (an explicit time wins).
      const settings = await orderSettings();
      if (changes.planningCallAt === undefined && settings) changes.planningCallAt = planCall(settings, zone, now, current.planningCallAt);
    }
    await this.repo.update(m, id, changes);
  }

  /**
   * Locks the lead for an update. A phone change moves the lead between duplicate chains: both
   * phones' locks are taken first, in a fixed order, as creates of those phones do, then the row;
   * the lead then leaves its chain (its neighbours are joined), so no lead is ever left pointing
   * at one that moved away.
   */
  private async lockForChange(m: EntityManager, id: number, newPhone: string | undefined): Promise<LeadForUpdate> {
    const before = newPhone !== undefined ? await this.repo.findPhone(m, id) : null;
    const phoneChanges = before !== null && before.phone !== newPhone;
    if (phoneChanges) for (const p of [before.phone, newPhone!].sort()) await this.repo.lockPhone(m, before.orderId, p);
    const current = await this.repo.lockForUpdate(m, id);
    if (!current) throw DomainError.notFound('Lead', id);
    if (phoneChanges && current.phone !== before.phone) {
      throw DomainError.conflict(LEAD_ERRORS.CHANGED, `Lead ${id} changed meanwhile, retry the update`);
    }
    if (phoneChanges) await this.repo.detachFromChain(m, id, current.previousLeadId, current.nextLeadId);
    return current;
  }

  /** 409 when the order already has its limit of qualified leads today (the order's day in its default zone or offset). */
  private async checkQualifiedLimit(m: EntityManager, orderId: number, order: OrderSettings | null, now: Date): Promise<void> {
    const limit = order?.qualifiedLeadsPerDayLimit ?? null;
    if (limit === null || !order) return;
    await this.repo.lockQualified(m, orderId);
    const day = orderDayBounds(now, orderZone(order));
    const today = await this.repo.countQualified(m, orderId, day.start, day.end);
    if (!withinDailyLimit(today, limit)) {
      throw DomainError.conflict(
        LEAD_ERRORS.QUALIFIED_LIMIT,
        `Order ${orderId} already has ${today} qualified lead(s) today, its qualifiedLeadsPerDayLimit is ${limit}`,
      );
    }
  }

  private async validateCustomValues(input: unknown, m?: EntityManager): Promise<{ value: Record<string, unknown>; errors: FieldError[] }> {
    if (input === undefined) return { value: {}, errors: [] };
    const custom = await this.customFields.validateValues(input, 'leads', 'customValues', m);
    return custom.ok ? { value: custom.value, errors: [] } : { value: {}, errors: custom.errors };
  }
}

/**
 * A lead's zone after an update, the first that applies: a `timeZone` sent (null clears it: the
 * lead keeps its fixed offset); a `utcOffset` sent (a fixed offset, no zone); a new phone's
 * country when it has a single zone; else unchanged.
 */
function nextLeadZone(
  current: { timeZone: string | null; utcOffset: number },
  sent: { timeZone?: string | null; utcOffset?: number },
  newPhoneCountry: string | null | undefined,
  now: Date,
): { timeZone: string | null; utcOffset: number } {
  const named = (name: string) => ({ timeZone: name, utcOffset: wholeHourOffset(zoneOf(name, 0), now) });
  if (sent.timeZone) return named(sent.timeZone);
  if (sent.utcOffset !== undefined) return { timeZone: null, utcOffset: sent.utcOffset };
  if (sent.timeZone === null) return { timeZone: null, utcOffset: current.utcOffset };
  const country = newPhoneCountry === undefined ? null : countryTimeZone(newPhoneCountry);
  return country ? named(country) : current;
}
