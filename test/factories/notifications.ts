import request from 'supertest';
import type { DataSource } from 'typeorm';
import type { TestApp } from '../support/test-app';

/** Users straight into app_user (the users module is tested on its own), and notification helpers. */

export interface TestUserFields {
  email?: string;
  name?: string;
  accessGroup?: '' | 'client' | 'call-center' | 'call-center-senior' | 'arbitration' | 'moderator' | 'admin';
  isActive?: boolean;
  emailEnabled?: boolean;
  emailPriority?: 'urgent' | null;
  telegramEnabled?: boolean;
  telegramChatId?: string | null;
  telegramPriority?: 'urgent' | null;
}

let seq = 0;

export async function insertUser(ds: DataSource, f: TestUserFields = {}): Promise<{ id: number; email: string }> {
  seq += 1;
  const email = f.email ?? `agent-${seq}-${Math.random().toString(36).slice(2, 8)}@notify.test`;
  const rows: { id: number }[] = await ds.query(
    `INSERT INTO app_user (name, email, access_group, is_active, email_notifications_enabled, email_notifications_priority,
       telegram_notifications_enabled, telegram_chat_id, telegram_notifications_priority)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      f.name ?? `Agent ${seq}`,
      email,
      f.accessGroup ?? 'call-center',
      f.isActive ?? true,
      f.emailEnabled ?? false,
      f.emailPriority ?? null,
      f.telegramEnabled ?? false,
      f.telegramChatId ?? null,
      f.telegramPriority ?? null,
    ],
  );
  return { id: rows[0].id, email };
}

export interface NotificationBody {
  type: string;
  level: string;
  title: string;
  text: string;
  [extra: string]: unknown;
}

let titles = 0;
/** A valid body with a title unique in this run (to find its messages among the others). */
export function notificationBody(fields: Partial<NotificationBody> = {}): NotificationBody {
  titles += 1;
  return { type: 'default', level: 'default', title: `Notice ${titles}-${Math.random().toString(36).slice(2, 7)}`, text: 'Shift starts at 09:00.', ...fields };
}

export function postNotification(t: TestApp, kind: 'group' | 'private' | 'public', body: object, key = t.apiKey) {
  return request(t.http).post(`/v1/notification/${kind}/`).set('X-Api-Key', key).send(body);
}

export interface DeliveryState {
  userId: number;
  channel: string;
  status: string;
  address: string | null;
  attempts: number;
  lastError: string | null;
}

export async function deliveriesOfTitle(ds: DataSource, title: string): Promise<DeliveryState[]> {
  return ds.query(
    `SELECT d.user_id AS "userId", d.channel, d.status, d.address, d.attempts, d.last_error AS "lastError"
     FROM notification_delivery d JOIN notification n ON n.id = d.notification_id
     WHERE n.title = $1 ORDER BY d.user_id, d.channel`,
    [title],
  );
}

/** Rows of every table a notification request writes to, to prove a rejected one wrote nothing. */
export async function notificationFootprint(ds: DataSource): Promise<{ notifications: number; deliveries: number; jobs: number }> {
  const [row] = await ds.query(
    `SELECT (SELECT count(*)::int FROM notification) AS notifications,
            (SELECT count(*)::int FROM notification_delivery) AS deliveries,
            (SELECT count(*)::int FROM pgboss.job WHERE name = 'notification.deliver') AS jobs`,
  );
  return row;
}
