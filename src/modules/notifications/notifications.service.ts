import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/domain-error';
import { IdempotentWrites } from '../../common/idempotency/idempotent-writes';
import { Page } from '../../common/envelope';
import { JobQueueService } from '../queue/job-queue.service';
import { EmailChannel } from './channels/email.channel';
import { MessengerChannel } from './channels/messenger.channel';
import { Audience, chunk, DELIVERY_BATCH_SIZE, EXTERNAL_CHANNELS, NotificationContent } from './domain/notification';
import { NOTIFICATION_ERRORS } from './domain/notifications.errors';
import { DELIVER_QUEUE, DeliverJob } from './notification-delivery.service';
import { DeliveryRow, FanOutResult, NotificationRow, NotificationsRepository } from './persistence/notifications.repository';

export interface UserNotification extends NotificationRow {
  deliveries: DeliveryRow[];
}

@Injectable()
export class NotificationsService {
  constructor(
    private readonly idempotent: IdempotentWrites,
    private readonly repo: NotificationsRepository,
    private readonly queue: JobQueueService,
    private readonly email: EmailChannel,
    private readonly messenger: MessengerChannel,
  ) {}

  /**
   * Stores the notification with its deliveries and enqueues the outbox jobs for the pending e-mail
   * and messenger rows (one job per batch of DELIVERY_BATCH_SIZE rows of a channel), all in one
   * transaction and a handful of statements whatever the audience: everything exists or nothing does.
   * The routes answer `data: []`, which is also what their Idempotency-Key replays.
   */
  async send(audience: Audience, content: NotificationContent): Promise<{ notificationId: number } & FanOutResult> {
    return this.idempotent.transaction(
      async (m) => {
        if (audience.scope === 'private' && !(await this.repo.lockUser(m, audience.userId))) {
          throw DomainError.notFound('User', audience.userId, NOTIFICATION_ERRORS.USER_NOT_FOUND);
        }
        const notificationId = await this.repo.insertNotification(m, audience, content);
        const result = await this.repo.fanOut(m, notificationId, audience, content.type, {
          email: this.email.configured,
          messenger: this.messenger.configured,
        });
        const jobs: DeliverJob[] = EXTERNAL_CHANNELS.flatMap((channel) =>
          chunk(result.pending[channel], DELIVERY_BATCH_SIZE).map((deliveryIds) => ({ channel, deliveryIds })),
        );
        await this.queue.sendMany(DELIVER_QUEUE, jobs, { manager: m });
        return { notificationId, ...result };
      },
      () => [],
    );
  }

  /** A user's notifications with their delivery state per channel; two queries for the page, one for the deliveries. */
  async listForUser(userId: number, offset: number, limit: number): Promise<Page<UserNotification>> {
    const page = await this.repo.listForUser(userId, offset, limit);
    if (page.total === 0 && !(await this.repo.userExists(userId))) throw DomainError.notFound('User', userId, NOTIFICATION_ERRORS.USER_NOT_FOUND);
    const deliveries = await this.repo.deliveriesOf(
      userId,
      page.list.map((r) => r.id),
    );
    const byNotification = new Map<number, DeliveryRow[]>();
    for (const d of deliveries) {
      const list = byNotification.get(d.notificationId) ?? [];
      list.push(d);
      byNotification.set(d.notificationId, list);
    }
    return { ...page, list: page.list.map((r) => ({ ...r, deliveries: byNotification.get(r.id) ?? [] })) };
  }
}
