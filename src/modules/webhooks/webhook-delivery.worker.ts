import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DATABASE_SOURCE, reportDatabaseError } from '../../common/outage-log';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { InjectWorkerDataSource } from '../queue/worker-database';
import { nextRetryDelayMs } from './domain/retry-schedule';
import { webhookHeaders } from './domain/signature';
import { ClaimedDelivery, DeliveryOutcome, WebhookDeliveriesRepository } from './persistence/webhook-deliveries.repository';
import { SendResult, WebhookSender } from './webhook-sender';

/** Beyond the attempt's own timeout, how long a claimed delivery stays invisible to other claims. */
const LEASE_MARGIN_MS = 20_000;
/** Concurrent claim-send-record loops per instance; WEBHOOK_CONCURRENCY is shared between them. */
const LANES = 2;
export const GONE_REASON = 'the endpoint answered 410 Gone';

/**
 * Sends due deliveries. Each round of a lane claims its share of WEBHOOK_CONCURRENCY due deliveries
 * (`FOR UPDATE SKIP LOCKED`, so instances share the work without sending one twice at once), sends
 * them concurrently, and records every outcome in one statement: 2xx delivered; anything else
 * retried after the schedule's next wait, or `failed` once it is used up; 410 fails the delivery
 * and disables the webhook. A webhook with no success for WEBHOOK_DISABLE_AFTER_FAILING_HOURS is
 * disabled with the reason. A worker that dies mid-round leaves its claims to expire (lease), so
 * they are sent again: at-least-once. Runs on instances with WORKERS > 0.
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
    await Promise.all(this.lanes);
    this.sender.close();
  }

  /** New deliveries were stored: look now rather than at the next poll. */
  wake(): void {
    if (this.waiting.size === 0) this.woken = true;
    for (const finish of [...this.waiting]) finish();
  }

  /** One round: claim, send, record. Returns how many deliveries it claimed. */
  async deliverDue(): Promise<number> {
    const batch = await this.repo.claimDue(this.ds.manager, this.batchSize, this.config.webhookTimeoutMs + LEASE_MARGIN_MS);
    if (batch.length === 0) return 0;
    const results = await Promise.all(batch.map((d) => this.attempt(d)));
    await this.record(batch, results);
    return batch.length;
  }

  private attempt(d: ClaimedDelivery): Promise<SendResult> {
    const secrets = d.previousSecret ? [d.secret, d.previousSecret] : [d.secret];
    const timestamp = Math.floor(Date.now() / 1000);
    return this.sender.send(d.url, webhookHeaders(secrets, d.eventId, timestamp, d.payload), d.payload);
  }

  private async record(batch: ClaimedDelivery[], results: SendResult[]): Promise<void> {
    const outcomes: DeliveryOutcome[] = [];
    const succeeded = new Set<number>();
    const failed = new Set<number>();
    const gone = new Set<number>();
    batch.forEach((d, i) => {
      const r = results[i];
      if (r.error === null) {
        succeeded.add(d.webhookId);
        outcomes.push({ id: d.id, status: 'delivered', statusCode: r.statusCode, error: null, delayMs: null });
        return;
      }
      failed.add(d.webhookId);
      if (r.statusCode === 410) gone.add(d.webhookId);
      const delay = r.statusCode === 410 ? null : nextRetryDelayMs(this.config.webhookRetryScheduleMs, d.attempts + 1);
      outcomes.push({ id: d.id, status: delay === null ? 'failed' : 'pending', statusCode: r.statusCode, error: r.error, delayMs: delay });
    });
    for (const id of succeeded) failed.delete(id);
    await this.ds.transaction(async (m) => {
      await this.repo.recordOutcomes(m, outcomes);
      await this.repo.markSucceeded(m, [...succeeded]);
      const tired = await this.repo.markFailed(m, [...failed], this.config.webhookDisableAfterFailingHours);
      const goneNow = await this.repo.disable(m, [...gone], GONE_REASON);
      for (const id of tired)
        this.logger.warn(`webhook ${id} disabled: deliveries failed for ${this.config.webhookDisableAfterFailingHours} h without a success`);
      for (const id of goneNow) this.logger.warn(`webhook ${id} disabled: ${GONE_REASON}`);
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
