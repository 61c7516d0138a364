/**
 * Notifications: what they are, who gets them on which channel, and how a delivery is worded.
 * Plain TypeScript; the e2e tests check the stored deliveries against `wantsChannel` over every
 * combination of preferences.
 */

export const NOTIFICATION_TYPES = ['default', 'urgent'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_LEVELS = ['default', 'success', 'warning', 'danger'] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

/** Access groups a group notification can target (app_user.access_group, without the empty one). */
export const NOTIFICATION_GROUPS = ['client', 'call-center', 'call-center-senior', 'arbitration', 'moderator', 'admin'] as const;
export type NotificationGroup = (typeof NOTIFICATION_GROUPS)[number];

export const NOTIFICATION_SCOPES = ['group', 'private', 'public'] as const;
export type NotificationScope = (typeof NOTIFICATION_SCOPES)[number];

/** `inbox` is the in-app inbox (stored = delivered); the others go out through the outbox. */
export const CHANNELS = ['inbox', 'email', 'messenger'] as const;
export type Channel = (typeof CHANNELS)[number];
export const EXTERNAL_CHANNELS = ['email', 'messenger'] as const;
export type ExternalChannel = (typeof EXTERNAL_CHANNELS)[number];

/**
 * inbox rows are `delivered` when stored; external rows start `pending` and end `sent` or `failed`,
 * or are `skipped` when the channel is not configured.
 */
export const DELIVERY_STATUSES = ['pending', 'sent', 'failed', 'skipped', 'delivered'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const TITLE_MAX_LENGTH = 255;
export const TEXT_MAX_LENGTH = 4000;
export const LAST_ERROR_MAX_LENGTH = 1000;

export interface NotificationContent {
  type: NotificationType;
  level: NotificationLevel;
  title: string;
  text: string;
}

/** Who receives a notification. */
export type Audience = { scope: 'group'; group: NotificationGroup } | { scope: 'private'; userId: number } | { scope: 'public' };

/** A user's settings for one channel (`*NotificationsEnabled`, `*NotificationsPriority`, the address). */
export interface ChannelPreference {
  enabled: boolean;
  /** `urgent`: only urgent notifications; null: all of them. */
  priority: 'urgent' | null;
  /** E-mail address or messenger chat id; a channel without one cannot be used. */
  address: string | null;
}

/**
 * Whether an active recipient gets this notification on an external channel: the channel is on,
 * its priority filter lets the notification's type through, and there is somewhere to send it.
 */
export function wantsChannel(pref: ChannelPreference, type: NotificationType): boolean {
  if (!pref.enabled) return false;
  if (pref.priority === 'urgent' && type !== 'urgent') return false;
  return pref.address !== null && pref.address.trim() !== '';
}

/** A user the notification is for, with a preference per external channel. */
export interface Recipient {
  id: number;
  isActive: boolean;
  email: ChannelPreference;
  messenger: ChannelPreference;
}

/** One row of a notification's fan-out: its user, channel, initial status and, for a skipped row, why. */
export interface PlannedDelivery {
  userId: number;
  channel: Channel;
  status: DeliveryStatus;
  address: string | null;
  lastError: string | null;
}

/** Which external channels this instance can deliver to; rows of the others are stored as `skipped`. */
export type ConfiguredChannels = Record<ExternalChannel, boolean>;

export const NOT_CONFIGURED: Record<ExternalChannel, string> = {
  email: 'channel not configured (SMTP_URL is not set)',
  messenger: 'channel not configured (MESSENGER_BOT_URL is not set)',
};

/**
 * The fan-out, by recipient and channel name: an inbox row per recipient (delivered when stored),
 * and a row per external channel an active recipient wants (`pending`, or `skipped` when the
 * channel is not configured here).
 */
export function plannedDeliveries(recipients: readonly Recipient[], type: NotificationType, configured: ConfiguredChannels): PlannedDelivery[] {
  const rows: PlannedDelivery[] = [];
  for (const r of [...recipients].sort((a, b) => a.id - b.id)) {
    const external = (channel: ExternalChannel): PlannedDelivery | null => {
      if (!r.isActive || !wantsChannel(r[channel], type)) return null;
      const ready = configured[channel];
      return { userId: r.id, channel, status: ready ? 'pending' : 'skipped', address: r[channel].address, lastError: ready ? null : NOT_CONFIGURED[channel] };
    };
    const inbox: PlannedDelivery = { userId: r.id, channel: 'inbox', status: 'delivered', address: null, lastError: null };
    for (const row of [external('email'), inbox, external('messenger')]) if (row) rows.push(row);
  }
  return rows;
}

/** Outbox rows per delivery job: a job sends its rows a few at a time; retries resend only the unsent ones. */
export const DELIVERY_BATCH_SIZE = 50;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size must be a positive integer, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** pg-boss counts retries from 0: the attempt with retryCount = retryLimit is the last one. */
export function isFinalAttempt(retryCount: number, retryLimit: number): boolean {
  return retryCount >= retryLimit;
}

export function emailSubject(n: Pick<NotificationContent, 'type' | 'title'>): string {
  return n.type === 'urgent' ? `[URGENT] ${n.title}` : n.title;
}

/** The body the messenger bot endpoint receives (POST, JSON). */
export interface MessengerMessage {
  chatId: string;
  text: string;
  urgent: boolean;
  level: NotificationLevel;
  notificationId: number;
}

export function messengerMessage(chatId: string, notificationId: number, n: NotificationContent): MessengerMessage {
  return { chatId, text: `${n.title}\n\n${n.text}`, urgent: n.type === 'urgent', level: n.level, notificationId };
}

/** A failure reason fit for `last_error`: one line, bounded, never empty. */
export function describeError(err: unknown): string {
  const raw = err instanceof Error ? err.message : typeof err === 'string' ? err : JSON.stringify(err);
  const line = (raw || 'unknown error').replace(/\s+/g, ' ').trim() || 'unknown error';
  return line.length > LAST_ERROR_MAX_LENGTH ? `${line.slice(0, LAST_ERROR_MAX_LENGTH - 1)}…` : line;
}
