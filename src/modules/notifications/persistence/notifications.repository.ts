import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  Audience,
  Channel,
  DeliveryStatus,
  ExternalChannel,
  NotificationContent,
  NotificationGroup,
  NotificationLevel,
  NotificationScope,
  NotificationType,
} from '../domain/notification';
import type { Page } from '../../../common/envelope';
import { findPage } from '../../../database/page';

export interface NotificationRow {
  id: number;
  scope: NotificationScope;
  type: NotificationType;
  level: NotificationLevel;
  title: string;
  text: string;
  group: NotificationGroup | null;
  createdAt: Date;
}

export interface DeliveryRow {
  notificationId: number;
  channel: Channel;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  sentAt: Date | null;
}

/** An outbox row still to deliver, with what to say. */
export interface PendingDelivery extends NotificationContent {
  id: string;
  notificationId: number;
  channel: ExternalChannel;
  address: string;
  attempts: number;
}

export interface FanOutResult {
  recipients: number;
  /** Ids of the outbox rows to deliver (bigint, as text), per channel, ascending. */
  pending: Record<ExternalChannel, string[]>;
}

/** Which external channels this instance can deliver to; rows of the others are stored as `skipped`. */
export interface ConfiguredChannels {
  email: boolean;
  messenger: boolean;
}

export const NOT_CONFIGURED: Record<ExternalChannel, string> = {
  email: 'channel not configured (SMTP_URL is not set)',
  messenger: 'channel not configured (MESSENGER_BOT_URL is not set)',
};

/**
 * `wantsChannel` (domain/notification.ts) in SQL, for one recipient row `r`: the user is active, the
 * channel is enabled, its priority lets the type through ($2), and the address is not blank.
 */
const wants = (enabled: string, priority: string, address: string) =>
  `(r.is_active AND r.${enabled} AND (r.${priority} IS NULL OR $2 = 'urgent') AND btrim(coalesce(r.${address}, '')) <> '')`;

/** Plain SQL: the fan-out is set-based (one statement whatever the audience size). */
@Injectable()
export class NotificationsRepository {
  constructor(private readonly ds: DataSource) {}

  /** Locks the user against deletion for the rest of the transaction; false when there is none. */
  async lockUser(m: EntityManager, userId: number): Promise<boolean> {
    const rows: unknown[] = await m.query(`SELECT 1 FROM app_user WHERE id = $1 FOR KEY SHARE`, [userId]);
    return rows.length > 0;
  }

  async userExists(userId: number): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(`SELECT 1 FROM app_user WHERE id = $1`, [userId]);
    return rows.length > 0;
  }

  async insertNotification(m: EntityManager, audience: Audience, content: NotificationContent): Promise<number> {
    const rows: { id: number }[] = await m.query(
      `INSERT INTO notification (scope, type, level, title, text, target_group, target_user_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [
        audience.scope,
        content.type,
        content.level,
        content.title,
        content.text,
        audience.scope === 'group' ? audience.group : null,
        audience.scope === 'private' ? audience.userId : null,
      ],
    );
    return rows[0].id;
  }

  /**
   * One statement: an inbox row per recipient (delivered at once), plus an e-mail and a messenger
   * row per recipient whose preferences want it (`pending`, or `skipped` when the channel is not
   * configured), and the notification's recipient count.
   */
  async fanOut(m: EntityManager, notificationId: number, audience: Audience, type: NotificationType, channels: ConfiguredChannels): Promise<FanOutResult> {
    const params: unknown[] = [notificationId, type, channels.email, channels.messenger, NOT_CONFIGURED.email, NOT_CONFIGURED.messenger];
    let recipients: string;
    switch (audience.scope) {
      case 'group':
        params.push(audience.group);
        recipients = `u.access_group = $7 AND u.is_active`;
        break;
      case 'private':
        params.push(audience.userId);
        recipients = `u.id = $7`;
        break;
      case 'public':
        recipients = `u.is_active`;
        break;
    }
    const rows: { recipients: number; email: string[]; messenger: string[] }[] = await m.query(
      `WITH r AS (
         SELECT u.id, u.is_active, u.email, u.email_notifications_enabled, u.email_notifications_priority,
                u.telegram_chat_id, u.telegram_notifications_enabled, u.telegram_notifications_priority
         FROM app_user u WHERE ${recipients}
       ), ins AS (
         INSERT INTO notification_delivery (notification_id, user_id, channel, status, address, last_error, sent_at)
         SELECT $1, r.id, c.channel,
                CASE WHEN c.channel = 'inbox' THEN 'delivered' WHEN c.configured THEN 'pending' ELSE 'skipped' END,
                c.address,
                CASE WHEN c.channel <> 'inbox' AND NOT c.configured THEN c.reason END,
                CASE WHEN c.channel = 'inbox' THEN now() END
         FROM r
         CROSS JOIN LATERAL (VALUES
           ('inbox', NULL::varchar, true, true, NULL::varchar),
           ('email', r.email::varchar, ${wants('email_notifications_enabled', 'email_notifications_priority', 'email')}, $3::boolean, $5::varchar),
           ('messenger', r.telegram_chat_id::varchar, ${wants('telegram_notifications_enabled', 'telegram_notifications_priority', 'telegram_chat_id')}, $4::boolean, $6::varchar)
         ) AS c (channel, address, wanted, configured, reason)
         WHERE c.wanted
         ORDER BY r.id, c.channel
         RETURNING id, channel, status
       ), counted AS (
         UPDATE notification SET recipient_count = (SELECT count(*) FROM ins WHERE channel = 'inbox') WHERE id = $1
       )
       SELECT count(*) FILTER (WHERE channel = 'inbox')::int AS recipients,
              coalesce(array_agg(id::text ORDER BY id) FILTER (WHERE status = 'pending' AND channel = 'email'), '{}') AS email,
              coalesce(array_agg(id::text ORDER BY id) FILTER (WHERE status = 'pending' AND channel = 'messenger'), '{}') AS messenger
       FROM ins`,
      params,
    );
    const [row] = rows;
    return { recipients: row.recipients, pending: { email: row.email, messenger: row.messenger } };
  }

  /** A user's notifications (those with an inbox row for them), by id. */
  listForUser(userId: number, offset: number, limit: number): Promise<Page<NotificationRow>> {
    return findPage<NotificationRow>(
      {
        db: this.ds,
        select: `SELECT n.id, n.scope, n.type, n.level, n.title, n.text, n.target_group AS "group", n.created_at AS "createdAt"
                 FROM notification_delivery d JOIN notification n ON n.id = d.notification_id
                 WHERE d.user_id = $1 AND d.channel = 'inbox'
                 ORDER BY d.notification_id`,
        count: `SELECT count(*)::int AS n FROM notification_delivery WHERE user_id = $1 AND channel = 'inbox'`,
        params: [userId],
      },
      offset,
      limit,
    );
  }

  /** The user's delivery rows of a page of notifications, in one query, channels in a fixed order. */
  async deliveriesOf(userId: number, notificationIds: number[]): Promise<DeliveryRow[]> {
    if (notificationIds.length === 0) return [];
    return this.ds.query(
      `SELECT notification_id AS "notificationId", channel, status, attempts, last_error AS "lastError", sent_at AS "sentAt"
       FROM notification_delivery
       WHERE user_id = $1 AND notification_id = ANY($2::int[])
       ORDER BY notification_id, array_position(ARRAY['inbox', 'email', 'messenger']::varchar[], channel)`,
      [userId, notificationIds],
    );
  }

  /** Those of the outbox rows still pending (others are settled: sent, failed, skipped), with their notification. */
  async findPending(deliveryIds: string[]): Promise<PendingDelivery[]> {
    return this.ds.query(
      `SELECT d.id::text AS id, d.notification_id AS "notificationId", d.channel, d.address, d.attempts,
              n.type, n.level, n.title, n.text
       FROM notification_delivery d JOIN notification n ON n.id = d.notification_id
       WHERE d.id = ANY($1::bigint[]) AND d.status = 'pending' AND d.channel <> 'inbox'
       ORDER BY d.id`,
      [deliveryIds],
    );
  }

  async markSent(deliveryId: string): Promise<void> {
    await this.ds.query(
      `UPDATE notification_delivery SET status = 'sent', attempts = attempts + 1, sent_at = now(), updated_at = now()
       WHERE id = $1 AND status = 'pending'`,
      [deliveryId],
    );
  }

  /** Records one failed attempt for each row; with `final` the rows are settled as `failed`. */
  async markAttemptsFailed(failures: { id: string; error: string }[], final: boolean): Promise<void> {
    if (failures.length === 0) return;
    await this.ds.query(
      `UPDATE notification_delivery d
       SET attempts = d.attempts + 1, last_error = f.error, status = CASE WHEN $3::boolean THEN 'failed' ELSE d.status END, updated_at = now()
       FROM unnest($1::bigint[], $2::varchar[]) AS f (id, error)
       WHERE d.id = f.id AND d.status = 'pending'`,
      [failures.map((f) => f.id), failures.map((f) => f.error), final],
    );
  }

  /** Settles rows whose job died without settling them (e.g. expired on its last attempt). */
  async markFailedIfPending(deliveryIds: string[], error: string): Promise<void> {
    await this.ds.query(
      `UPDATE notification_delivery SET status = 'failed', last_error = coalesce(last_error, $2), updated_at = now()
       WHERE id = ANY($1::bigint[]) AND status = 'pending'`,
      [deliveryIds, error],
    );
  }

  /**
   * Demo history: settles the still-pending outbox rows of a seeded notification (of one channel,
   * or all) as sent a few seconds after it was stored, or as failed after `attempts` attempts.
   */
  async settleForDemo(
    m: EntityManager,
    notificationId: number,
    outcome: { status: 'sent'; channel?: ExternalChannel } | { status: 'failed'; channel?: ExternalChannel; error: string; attempts: number },
  ): Promise<void> {
    const failed = outcome.status === 'failed';
    await m.query(
      `UPDATE notification_delivery
       SET status = $2::varchar, attempts = $4, last_error = $5, sent_at = CASE WHEN $2::varchar = 'sent' THEN created_at + interval '3 seconds' END
       WHERE notification_id = $1 AND status = 'pending' AND ($3::varchar IS NULL OR channel = $3)`,
      [notificationId, outcome.status, outcome.channel ?? null, failed ? outcome.attempts : 1, failed ? outcome.error : null],
    );
  }
}
