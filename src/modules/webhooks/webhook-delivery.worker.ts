import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DATABASE_SOURCE, reportDatabaseError } from '../../common/outage-log';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { InjectWorkerDataSource } from '../queue/persistence/worker-database';
import { attemptOutcome, AttemptOutcome } from './domain/retry-schedule';
import { webhookHeaders } from './domain/signature';
import { ClaimedDelivery, DeliveryTarget, WebhookDeliveriesRepository } from './persistence/webhook-deliveries.repository';
import { SendResult, WebhookSender } from './http/webhook-sender';

/** Beyond the attempt's own timeout, how long a claimed delivery stays invisible to other claims. */
const LEASE_MARGIN_MS = 20_000;
/** Concurrent claim-send-record loops per instance; WEBHOOK_CONCURRENCY is shared between them. */
const LANES = 2;
export const GONE_REASON = 'the endpoint answered 410 Gone';

/** One attempt each, as `sendNow` left them when its budget ended: answered, still running, or not started. */
export type SendNowResult = (SendResult | Promise<SendResult> | null)[];

/**
 * Sends deliveries: the dispatcher's first attempts via `sendNow`, everything else due through lanes that claim a share of WEBHOOK_CONCURRENCY
 * (`SKIP LOCKED`), send concurrently and record outcomes in one statement: 2xx delivered, else retried per schedule or `failed`; 410 disables the
 * webhook, as do WEBHOOK_DISABLE_AFTER_FAILING_HOURS without success. A dead worker's claims expire (lease): at-least-once. WORKERS > 0 only.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly sender: WebhookSender;
  private stopped = true;
  private lanes: Promise<void>[] = [];
  /** Deliveries claimed per round of one lane. */
  private readonly batchSize: number;
  private readonly waiting = new Set<() => void>();
  private woken = false;
  /** Outcomes of attempts that outlived `sendNow`'s budget, still to be recorded. */
  private readonly late = new Set<Promise<void>>();

  constructor(
    @InjectWorkerDataSource() private readonly ds: DataSource,
    private readonly repo: WebhookDeliveriesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.sender = new WebhookSender({
      allowPrivate: config.webhookAllowPrivateNetworks,
      timeoutMs: config.webhookTimeoutMs,
      maxSockets: config.webhookConcurrency,
    });
    this.batchSize = Math.max(1, Math.ceil(config.webhookConcurrency / LANES));
  }

  onApplicationBootstrap(): void {
    if (this.config.workers <= 0) return;
    this.stopped = false;
    // Two lanes: one claims and records (database round trips) while the other sends.
    this.lanes = Array.from({ length: this.config.webhookConcurrency > 1 ? LANES : 1 }, () => this.run());
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.wake();
    await Promise.all([...this.lanes, ...this.late]);
    this.sender.close();
  }

  /** How long a claimed delivery (or one whose first attempt still runs) stays invisible to claims. */
  get leaseMs(): number {
    return this.config.webhookTimeoutMs + LEASE_MARGIN_MS;
  }

  /** New deliveries were stored: look now rather than at the next poll. */
  wake(): void {
    if (this.waiting.size === 0) this.woken = true;
    for (const finish of [...this.waiting]) finish();
  }

  /** One round: claim, send, record. Returns how many deliveries it claimed. */
  async deliverDue(): Promise<number> {
    const batch = await this.repo.claimDue(this.ds.manager, this.batchSize, this.leaseMs);
    if (batch.length === 0) return 0;
    const results = await Promise.all(batch.map((d) => this.send(d)));
    await this.record(batch, results);
    return batch.length;
  }

  /** One attempt: signed with every valid secret, stamped with this moment. */
  send(d: DeliveryTarget): Promise<SendResult> {
    const secrets = d.previousSecret ? [d.secret, d.previousSecret] : [d.secret];
    const timestamp = Math.floor(Date.now() / 1000);
    return this.sender.send(d.url, webhookHeaders(secrets, d.eventId, timestamp, d.payload), d.payload);
  }

  /**
   * The dispatcher's first attempts: sends the deliveries at most WEBHOOK_CONCURRENCY at a time,
   * starting new ones for `budgetMs` at most, and waits no longer than that. Each item comes back
   * answered, still running (its promise), or not started (null).
   */
  async sendNow(items: DeliveryTarget[], budgetMs: number): Promise<SendNowResult> {
    const out: SendNowResult = items.map(() => null);
    let next = 0;
    let over = false;
    const lane = async () => {
      while (!over && !this.stopped && next < items.length) {
        const i = next++;
        const attempt = this.send(items[i]);
        out[i] = attempt;
        out[i] = await attempt;
      }
    };
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, budgetMs)));
    const lanes = Array.from({ length: Math.min(this.config.webhookConcurrency, items.length) }, lane);
    await Promise.race([Promise.all(lanes), budget]);
    over = true;
    clearTimeout(timer);
    // A copy: lanes still running go on writing their answers into `out`.
    return out.slice();
  }

  /** The outcome of attempts whose rows (attempts not counting them) are already stored. */
  recordWhenDone(batch: ClaimedDelivery[], attempts: Promise<SendResult>[]): void {
    if (batch.length === 0) return;
    const done: Promise<void> = Promise.all(attempts)
      .then((results) => this.record(batch, results))
      // Unrecorded, the rows come due again when their lease ends and are sent again (at-least-once).
      .catch((err: unknown) => reportDatabaseError(DATABASE_SOURCE, err, this.logger))
      .finally(() => this.late.delete(done));
    this.late.add(done);
  }

  /** What each answer means, for a batch of deliveries whose `attempts` do not count it yet. */
  private outcomes(batch: { attempts: number }[], results: SendResult[]): AttemptOutcome[] {
    return batch.map((d, i) => attemptOutcome(this.config.webhookRetryScheduleMs, d.attempts + 1, results[i]));
  }

  /**
   * In `m`: what the answers say about each webhook. A success ends its run of failures; a failure
   * starts one (or disables the webhook after WEBHOOK_DISABLE_AFTER_FAILING_HOURS); 410 disables it.
   */
  async applyToWebhooks(m: EntityManager, answered: { webhookId: number; outcome: AttemptOutcome }[]): Promise<void> {
    const succeeded = new Set(answered.filter((a) => a.outcome.status === 'delivered').map((a) => a.webhookId));
    const failed = answered.filter((a) => a.outcome.status !== 'delivered' && !succeeded.has(a.webhookId)).map((a) => a.webhookId);
    const gone = answered.filter((a) => a.outcome.gone).map((a) => a.webhookId);
    await this.repo.markSucceeded(m, [...succeeded]);
    const tired = await this.repo.markFailed(m, [...new Set(failed)], this.config.webhookDisableAfterFailingHours);
    const goneNow = await this.repo.disable(m, [...new Set(gone)], GONE_REASON);
    for (const id of tired)
      this.logger.warn(`webhook ${id} disabled: deliveries failed for ${this.config.webhookDisableAfterFailingHours} h without a success`);
    for (const id of goneNow) this.logger.warn(`webhook ${id} disabled: ${GONE_REASON}`);
  }

  /**
   * The webhooks first, then their deliveries: the order a webhook's delete locks them in (the row, then its
   * deliveries by cascade), so a delete meeting a record waits for it instead of deadlocking with it.
   */
  private async record(batch: ClaimedDelivery[], results: SendResult[]): Promise<void> {
    const outcomes = this.outcomes(batch, results);
    await this.ds.transaction(async (m) => {
      await this.applyToWebhooks(
        m,
        batch.map((d, i) => ({ webhookId: d.webhookId, outcome: outcomes[i] })),
      );
      await this.repo.recordOutcomes(
        m,
        outcomes.map(({ gone: _gone, ...o }, i) => ({ ...o, id: batch[i].id })),
      );
    });
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let claimed = 0;
      try {
        claimed = await this.deliverDue();
      } catch (err) {
        // An outage is logged once for the pool (down, then up), not once per poll; claims expire and are retried.
        reportDatabaseError(DATABASE_SOURCE, err, this.logger);
      }
      if (claimed < this.batchSize) await this.idle();
    }
  }

  private idle(): Promise<void> {
    if (this.woken || this.stopped) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.waiting.delete(finish);
        resolve();
      };
      const timer = setTimeout(finish, this.config.webhookPollIntervalMs);
      this.waiting.add(finish);
    });
  }
}
