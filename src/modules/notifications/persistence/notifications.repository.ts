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
  PlannedDelivery,
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

/** Plain SQL: a notification and its whole fan-out are stored in one statement, whatever the audience size. */
@Injectable()
export class NotificationsRepository {
  constructor(private readonly ds: DataSource) {}

  /**
   * One statement: the notification (with its recipient count, the inbox rows) and its delivery
   * rows, in the order given; returns its id and the ids of the rows left `pending`, per channel.
   */
  async insertWithDeliveries(
    m: EntityManager,
    audience: Audience,
    content: NotificationContent,
    deliveries: PlannedDelivery[],
  ): Promise<{ notificationId: number; pending: Record<ExternalChannel, string[]> }> {
    const rows: { notificationId: number; email: string[]; messenger: string[] }[] = await m.query(
      `WITH n AS (
         INSERT INTO notification (scope, type, level, title, text, target_group, target_user_id, recipient_count)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id
       ), ins AS (
         INSERT INTO notification_delivery (notification_id, user_id, channel, status, address, last_error, sent_at)
         SELECT n.id, d.user_id, d.channel, d.status, d.address, d.last_error, CASE WHEN d.channel = 'inbox' THEN now() END
         FROM n, unnest($9::int[], $10::varchar[], $11::varchar[], $12::varchar[], $13::varchar[]) WITH ORDINALITY
           AS d (user_id, channel, status, address, last_error, ord)
         ORDER BY d.ord
         RETURNING id, channel, status
       )
       SELECT (SELECT id FROM n) AS "notificationId",
              coalesce(array_agg(id::text ORDER BY id) FILTER (WHERE status = 'pending' AND channel = 'email'), '{}') AS email,
              coalesce(array_agg(id::text ORDER BY id) FILTER (WHERE status = 'pending' AND channel = 'messenger'), '{}') AS messenger
       FROM ins`,
      [
        audience.scope,
        content.type,
        content.level,
        content.title,
        content.text,
        audience.scope === 'group' ? audience.group : null,
        audience.scope === 'private' ? audience.userId : null,
        deliveries.filter((d) => d.channel === 'inbox').length,
        deliveries.map((d) => d.userId),
        deliveries.map((d) => d.channel),
        deliveries.map((d) => d.status),
        deliveries.map((d) => d.address),
        deliveries.map((d) => d.lastError),
      ],
    );
    const [row] = rows;
    return { notificationId: row.notificationId, pending: { email: row.email, messenger: row.messenger } };
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
