import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Job } from 'pg-boss';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobQueueService } from '../queue/job-queue.service';
import { EmailChannel } from './channels/email.channel';
import { MessengerChannel } from './channels/messenger.channel';
import { describeError, emailSubject, ExternalChannel, isFinalAttempt, messengerMessage } from './domain/notification';
import { NotificationsRepository, PendingDelivery } from './persistence/notifications.repository';

export const DELIVER_QUEUE = 'notification.deliver';
/** Where pg-boss moves a delivery job that failed for good without the handler settling its rows. */
export const DELIVER_DEAD_QUEUE = 'notification.deliver.dead';

/** One job: up to DELIVERY_BATCH_SIZE outbox rows of one channel. */
export interface DeliverJob {
  channel: ExternalChannel;
  deliveryIds: string[];
}

/** Sends of one job in flight at once (the SMTP pool has as many connections). */
const SEND_CONCURRENCY = 5;

/**
 * The outbox worker: a job sends its rows still `pending`, marking each success `sent` at once; failures count an attempt and the
 * job throws, so pg-boss retries with backoff (only unsent rows) and the last attempt marks them `failed`. A job dying otherwise
 * lands in the dead-letter queue, whose handler marks its rows `failed`: no row stays `pending` for ever.
 */
@Injectable()
export class NotificationDeliveryService {
  private readonly logger = new Logger('NotificationDelivery');

  constructor(
    private readonly queue: JobQueueService,
    private readonly repo: NotificationsRepository,
    private readonly email: EmailChannel,
    private readonly messenger: MessengerChannel,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // With no channel configured nothing is ever enqueued here: the health check needs no consumer.
    const neededConsumers = email.configured || messenger.configured ? 1 : 0;
    // The dead-letter queue is registered (hence created) first: pg-boss wants it to exist.
    queue.register<DeliverJob>({
      name: DELIVER_DEAD_QUEUE,
      neededConsumers,
      options: { retryLimit: 3, retryDelay: 5, retryBackoff: true },
      handle: (job) => this.settleDead(job),
    });
    queue.register<DeliverJob>({
      name: DELIVER_QUEUE,
      neededConsumers,
      options: {
        retryLimit: config.notificationRetryLimit,
        retryDelay: config.notificationRetryDelaySeconds,
        retryBackoff: true,
        retryDelayMax: 3600,
        deadLetter: DELIVER_DEAD_QUEUE,
      },
      handle: (job) => this.deliver(job),
    });
  }

  async deliver(job: Job<DeliverJob>): Promise<void> {
    const rows = await this.repo.findPending(job.data.deliveryIds);
    const failures: { id: string; error: string }[] = [];
    let bookkeeping: unknown; // a failure to record a success: the job is retried (at-least-once)
    await eachLimited(rows, SEND_CONCURRENCY, async (d) => {
      try {
        await this.send(d);
      } catch (err) {
        failures.push({ id: d.id, error: describeError(err) });
        return;
      }
      await this.repo.markSent(d.id).catch((err: unknown) => (bookkeeping ??= err));
    });
    if (failures.length === 0) {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows, unchanged, the error markSent rejected with
      if (bookkeeping) throw bookkeeping;
      return;
    }
    const final = isFinalAttempt(job.retryCount, await this.retryLimitOf(job));
    await this.repo.markAttemptsFailed(failures, final);
    const summary = `${failures.length} of ${rows.length} ${job.data.channel} deliveries failed${final ? ' for good' : ''}; first: ${failures[0].error}`;
    if (final) this.logger.warn(summary);
    throw new Error(summary); // pg-boss retries with backoff, or records the job as failed
  }

  private async send(d: PendingDelivery): Promise<void> {
    switch (d.channel) {
      case 'email':
        return this.email.send({ to: d.address, subject: emailSubject(d), text: d.text, messageId: `<notification-delivery-${d.id}@callcenter.local>` });
      case 'messenger':
        return this.messenger.send(messengerMessage(d.address, d.notificationId, d), `notification-delivery-${d.id}`);
    }
  }

  /** The job's own retry limit (fixed when it was enqueued), so a changed setting never strands a row. */
  private async retryLimitOf(job: Job<DeliverJob>): Promise<number> {
    const meta = await this.queue.getJob(DELIVER_QUEUE, job.id);
    return meta?.retryLimit ?? 0;
  }

  private async settleDead(job: Job<DeliverJob>): Promise<void> {
    await this.repo.markFailedIfPending(job.data.deliveryIds, 'delivery job failed without completing (expired or worker lost)');
  }
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
