/** Events for integrators: types, the public shape, and how stored snapshots map to domain shapes. */

export const EVENT_TYPES = [
  'lead.created',
  'lead.updated',
  'lead.create_failed',
  'call.created',
  'order.created',
  'order.updated',
  'dnc.added',
  'dnc.removed',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const isEventType = (value: unknown): value is EventType => typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);

/**
 * An event as the feed and webhook deliveries show it. `position` orders the feed (commit order);
 * `orderId` serves filters (the feed's orderIds, a webhook's orders) and is not part of the body.
 */
export interface PublicEvent {
  position: number;
  id: string;
  type: EventType;
  /** ISO 8601 time of the change (its transaction's time). */
  timestamp: string;
  data: object;
  orderId: number | null;
  /** The client of an event without an order that belongs to one (its do-not-call list's changes); not part of the body. */
  clientId: number | null;
}

/** The test event a webhook's owner asks for: it carries no order (data {webhookId}). */
export const WEBHOOK_TEST_EVENT: EventType = 'webhook.test';

/** Changes of a do-not-call list: an order's list's carry the order, a client's list's the client (`clientId`), the global list's neither. */
export const DNC_EVENT_TYPES: readonly EventType[] = ['dnc.added', 'dnc.removed'];

/**
 * What a feed read holds. Every type but WEBHOOK_TEST_EVENT and the do-not-call events carries its order (`order_id`: the lead's,
 * the call's, the failed job's, or the order itself), so a client key's feed (`clientId`) holds the events of the orders its client
 * has now, the do-not-call events of its client's own list (`client_id`; never the global list's), and the test events of its
 * client's webhooks.
 */
export interface FeedFilter {
  types?: string[];
  orderIds?: number[];
  /** A client key's client; absent: every client's events. */
  clientId?: number;
}

/** An event row as the feed reads it. */
export interface StoredEvent {
  position: number;
  id: string;
  type: EventType;
  orderId: number | null;
  clientId: number | null;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/**
 * v2 fields of lead columns whose names differ from the column's camelCase. `order_id` shows as
 * both orderId and orderCode. (The migration's trigger decides which updates are events: every
 * column but the unpresented ones, so a column added later is covered by the camelCase rule.)
 */
export const LEAD_COLUMN_FIELDS: Readonly<Record<string, readonly string[]>> = {
  order_id: ['orderId', 'orderCode'],
  planning_call_at: ['planningCallDateTime'],
  dialing_hold: ['dialingHold'],
  dialing_hold_since: ['dialingHold'],
  daily_cap_until: ['dialingHold'],
};

const camelCase = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * The v2 field names of changed lead columns, in the order of the presented object (`fields`),
 * each once; a column that maps to no presented field (updatedAt changes with every write) is left out.
 */
export function leadChangedFields(columns: readonly string[], fields: readonly string[]): string[] {
  const changed = new Set(columns.flatMap((c) => LEAD_COLUMN_FIELDS[c] ?? [camelCase(c)]));
  return fields.filter((f) => f !== 'updatedAt' && changed.has(f));
}

/**
 * Fields whose value differs between two versions of a record (compared as JSON, so dates, arrays
 * and maps compare by value); `ignore` lists fields that change on every write (updatedAt).
 */
export function changedFields(before: object, after: object, ignore: readonly string[] = []): string[] {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((k) => !ignore.includes(k) && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** A timestamptz as `to_jsonb` writes it ("2026-11-23T22:12:30.123+00:00"), or null. */
export function snapshotDate(value: unknown): Date | null {
  if (typeof value !== 'string' || value === '') return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}
