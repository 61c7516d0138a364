/** Events for integrators (issue 12): types, the public shape, and how stored snapshots map to domain shapes. */

export const EVENT_TYPES = [
  'lead.created',
  'lead.updated',
  'lead.create_failed',
  'call.created',
  'order.created',
  'order.updated',
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
}

export interface FeedFilter {
  types?: string[];
  orderIds?: number[];
}

/**
 * Lead columns the Lead v2 object presents, and the v2 fields each one shows (the migration's
 * trigger lists the same columns to decide that an update is an event). `order_id` shows as both
 * orderId and orderCode; `updated_at` changes with every write and is never "changed" on its own.
 */
export const LEAD_COLUMN_FIELDS: Readonly<Record<string, readonly string[]>> = {
  order_id: ['orderId', 'orderCode'],
  name: ['name'],
  phone: ['phone'],
  source_comment: ['sourceComment'],
  ip: ['ip'],
  external_id_crm_a: ['externalIdCrmA'],
  external_id_crm_b: ['externalIdCrmB'],
  external_id_crm_c: ['externalIdCrmC'],
  external_id_crm_d: ['externalIdCrmD'],
  status_id: ['statusId'],
  lead_type: ['leadType'],
  create_method: ['createMethod'],
  source: ['source'],
  is_secondary: ['isSecondary'],
  planning_call_at: ['planningCallDateTime'],
  priority: ['priority'],
  utc_offset: ['utcOffset'],
  created_at: ['createdAt'],
  social_a_id: ['socialAId'],
  social_b_login: ['socialBLogin'],
  messenger_user_name: ['messengerUserName'],
  messenger_phone: ['messengerPhone'],
  ad_campaign_id: ['adCampaignId'],
  custom_values: ['customValues'],
};

/** The v2 field names of changed lead columns, in the order given, each once; unknown columns are ignored. */
export function leadChangedFields(columns: readonly string[]): string[] {
  const fields = new Set<string>();
  for (const column of columns) for (const field of LEAD_COLUMN_FIELDS[column] ?? []) fields.add(field);
  return [...fields];
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
