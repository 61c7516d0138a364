import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ClientAccess } from '../../common/auth-context';
import { DomainError } from '../../common/domain-error';
import { IdempotentWrites } from '../../common/idempotency/idempotent-writes';
import { Page } from '../../common/envelope';
import { JobQueueService } from '../queue/job-queue.service';
import type { ContactFilter, UserContact } from '../users/domain/user';
import { UsersService } from '../users/users.service';
import { EmailChannel } from './channels/email.channel';
import { MessengerChannel } from './channels/messenger.channel';
import {
  Audience,
  chunk,
  ConfiguredChannels,
  DELIVERY_BATCH_SIZE,
  EXTERNAL_CHANNELS,
  ExternalChannel,
  NotificationContent,
  plannedDeliveries,
  Recipient,
} from './domain/notification';
import { NOTIFICATION_ERRORS } from './domain/notifications.errors';
import { DELIVER_QUEUE, DeliverJob } from './notification-delivery.service';
import { DeliveryRow, NotificationRow, NotificationsRepository } from './persistence/notifications.repository';

export interface UserNotification extends NotificationRow {
  deliveries: DeliveryRow[];
}

export interface StoredNotification {
  notificationId: number;
  recipients: number;
  /** Ids of the outbox rows to deliver (bigint, as text), per channel, ascending. */
  pending: Record<ExternalChannel, string[]>;
}

/** The users an audience reaches: a group's and everyone's are the active ones; a private notification's user in any case. */
function usersOf(audience: Audience): ContactFilter {
  switch (audience.scope) {
    case 'group':
      return { accessGroup: audience.group, isActive: true };
    case 'private':
      return { id: audience.userId };
    case 'public':
      return { isActive: true };
  }
}

const userNotFound = (id: number) => DomainError.notFound('User', id, NOTIFICATION_ERRORS.USER_NOT_FOUND);

function recipientOf(u: UserContact): Recipient {
  return {
    id: u.id,
    isActive: u.isActive,
    email: { enabled: u.emailNotificationsEnabled, priority: u.emailNotificationsPriority, address: u.email },
    messenger: { enabled: u.telegramNotificationsEnabled, priority: u.telegramNotificationsPriority, address: u.telegramChatId },
  };
}

@Injectable()
export class NotificationsService {
  constructor(
    private readonly idempotent: IdempotentWrites,
    private readonly repo: NotificationsRepository,
    private readonly users: UsersService,
    private readonly queue: JobQueueService,
    private readonly email: EmailChannel,
    private readonly messenger: MessengerChannel,
  ) {}

  /**
   * Stores the notification with its deliveries and enqueues outbox jobs for the pending e-mail and messenger rows in one
   * transaction of a handful of statements: all or nothing. The routes answer `data: []` (also what Idempotency-Key replays).
   * A user `access` does not reach is answered like one that does not exist.
   */
  async send(access: ClientAccess, audience: Audience, content: NotificationContent): Promise<StoredNotification> {
    if (audience.scope === 'private' && !(await this.users.reaches(access, audience.userId))) throw userNotFound(audience.userId);
    return this.idempotent.transaction(
      async (m) => {
        const stored = await this.store(m, audience, content, { email: this.email.configured, messenger: this.messenger.configured });
        const jobs: DeliverJob[] = EXTERNAL_CHANNELS.flatMap((channel) =>
          chunk(stored.pending[channel], DELIVERY_BATCH_SIZE).map((deliveryIds) => ({ channel, deliveryIds })),
        );
        await this.queue.sendMany(DELIVER_QUEUE, jobs, { manager: m });
        return stored;
      },
      () => [],
    );
  }

  /**
   * In `m`: the notification and a delivery per recipient and channel (plannedDeliveries), two
   * statements: the recipients' contacts from the users module (locked against deletion until
   * `m` commits, as their delivery rows reference them), then the notification with its rows.
   */
  async store(m: EntityManager, audience: Audience, content: NotificationContent, channels: ConfiguredChannels): Promise<StoredNotification> {
    const contacts = await this.users.lockContacts(usersOf(audience), m);
    if (audience.scope === 'private' && contacts.length === 0) throw userNotFound(audience.userId);
    const deliveries = plannedDeliveries(contacts.map(recipientOf), content.type, channels);
    const { notificationId, pending } = await this.repo.insertWithDeliveries(m, audience, content, deliveries);
    return { notificationId, recipients: contacts.length, pending };
  }

  /** A user's notifications with their delivery state per channel; two queries for the page, one for the deliveries. */
  async listForUser(userId: number, offset: number, limit: number): Promise<Page<UserNotification>> {
    const page = await this.repo.listForUser(userId, offset, limit);
    if (page.total === 0 && (await this.users.existingIds([userId])).length === 0) throw userNotFound(userId);
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
