import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './schema';

type JsonBody<Hook> = Hook extends { post: { requestBody?: { content: { 'application/json': infer Body } } } } ? Body : never;
type Events = { [Type in keyof webhooks]: JsonBody<webhooks[Type]> }[keyof webhooks];

/** A delivery's body: the union of the document's webhook payloads (`unknown` if it describes none). */
export type WebhookEvent = [Events] extends [never] ? unknown : Events;

/** The Standard Webhooks headers of a delivery (names in lower case, as Node gives them). */
export interface WebhookHeaders {
  'webhook-id'?: string | string[];
  'webhook-timestamp'?: string | string[];
  'webhook-signature'?: string | string[];
  [name: string]: string | string[] | undefined;
}

export interface VerifyWebhookOptions {
  /** How far the delivery's timestamp may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The time to compare with, in milliseconds (default Date.now()). */
  now?: number;
}

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

const header = (headers: WebhookHeaders, name: string): string => {
  const value = headers[name] ?? headers[name.toLowerCase()];
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) throw new WebhookVerificationError(`missing ${name} header`);
  return text;
};

/** The HMAC key of a `whsec_...` secret: its base64 part, decoded. */
const keyOf = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

/**
 * Checks a delivery the Standard Webhooks way and returns its parsed body: a `v1,<base64>` signature
 * must be the HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed by the secret, and the
 * timestamp within the tolerance. `body` is the raw request body, exactly as received.
 */
export function verifyWebhook<T = WebhookEvent>(secret: string, body: string | Buffer, headers: WebhookHeaders, options: VerifyWebhookOptions = {}): T {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('malformed webhook-timestamp');
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs((options.now ?? Date.now()) / 1000 - seconds) > tolerance) throw new WebhookVerificationError('webhook-timestamp outside the tolerance');
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const expected = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${text}`).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no valid signature');
  return JSON.parse(text) as T;
}
