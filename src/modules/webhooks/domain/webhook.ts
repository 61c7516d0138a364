import { FieldError } from '../../../common/domain-error';

/** Subscribes to every event type. */
export const ALL_EVENTS = '*';
/** The event a test sends; it goes only to the webhook it was requested for. */
export const TEST_EVENT_TYPE = 'webhook.test';
/** A webhook's order filter holds at most this many orders (a page of ids, like list filters). */
export const MAX_WEBHOOK_ORDER_IDS = 100;
export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 500;

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];

export interface Webhook {
  id: number;
  /** The client whose keys own it; null: an unrestricted key's. */
  clientId: number | null;
  url: string;
  events: string[];
  orderIds: number[];
  description: string;
  isActive: boolean;
  /** Why the service turned the webhook off (410 Gone, failing for days); null when it did not. */
  disabledReason: string | null;
  disabledAt: Date | null;
  /** When the previous secret stops signing (after a rotation); null when only one secret signs. */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookDelivery {
  id: number;
  webhookId: number;
  eventId: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** `events`: a non-empty list of known types, or `["*"]`; duplicates dropped. */
export function normaliseEvents(events: readonly string[], known: readonly string[]): Checked<string[]> {
  if (events.length === 0) return { ok: false, errors: [{ field: 'events', message: 'must not be empty (send ["*"] for every type)' }] };
  const unique = [...new Set(events)];
  if (unique.includes(ALL_EVENTS)) {
    return unique.length === 1
      ? { ok: true, value: [ALL_EVENTS] }
      : { ok: false, errors: [{ field: 'events', message: '"*" stands alone (it means every type)' }] };
  }
  const unknown = unique.filter((t) => !known.includes(t));
  if (unknown.length) return { ok: false, errors: [{ field: 'events', message: `unknown types: ${unknown.join(', ')} (known: ${known.join(', ')})` }] };
  return { ok: true, value: unique };
}

/**
 * The URL's shape: absolute http(s) without credentials; `http:` only when allowed. Where it
 * points (the addresses it resolves to) is checked apart, with DNS.
 */
export function checkUrlShape(text: string, allowHttp: boolean): Checked<URL> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, errors: [{ field: 'url', message: 'must be an absolute URL (https://...)' }] };
  }
  const errors: FieldError[] = [];
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
    errors.push({
      field: 'url',
      message: allowHttp ? 'must be an http or https URL' : 'must be an https URL (http is refused unless WEBHOOK_ALLOW_HTTP=true)',
    });
  }
  if (url.username || url.password)
    errors.push({ field: 'url', message: 'must not carry credentials (user:password@); authenticate deliveries by their signature' });
  if (!url.hostname) errors.push({ field: 'url', message: 'must name a host' });
  return errors.length ? { ok: false, errors } : { ok: true, value: url };
}

/** The event's fields a subscription is matched against. */
export interface EventRef {
  type: string;
  orderId: number | null;
  /** The client of the event's order now (null: the call center's own order, or no order). */
  orderClientId: number | null;
  /** The client of an event without an order that belongs to one (its do-not-call list's changes); null otherwise. */
  clientId: number | null;
  data: unknown;
}

/**
 * Whether an event goes to this webhook: a test event only to its own webhook; a client's webhook
 * only events of its client's orders and of its client's own do-not-call list, whatever its filters
 * say; then the type and order filters (an order filter leaves events without an order out).
 */
export function matchesWebhook(w: Pick<Webhook, 'id' | 'clientId' | 'events' | 'orderIds'>, e: EventRef): boolean {
  if (e.type === TEST_EVENT_TYPE) return (e.data as { webhookId?: unknown } | null)?.webhookId === w.id;
  const eventClient = e.orderId !== null ? e.orderClientId : e.clientId;
  if (w.clientId !== null && eventClient !== w.clientId) return false;
  if (!w.events.includes(ALL_EVENTS) && !w.events.includes(e.type)) return false;
  return w.orderIds.length === 0 || (e.orderId !== null && w.orderIds.includes(e.orderId));
}

/** A delivery's error text, short and free of response bodies (they may carry anything). */
export function describeSendError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; name?: unknown } | null;
  if (e && typeof e.code === 'string') return `${e.code}${typeof e.message === 'string' ? `: ${e.message}` : ''}`.slice(0, 500);
  if (e && typeof e.message === 'string') return e.message.slice(0, 500);
  return String(err).slice(0, 500);
}
