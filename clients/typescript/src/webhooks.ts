import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './schema';

type JsonBody<Hook> = Hook extends { post: { requestBody?: { content: { 'application/json': infer Body } } } } ? Body : never;
type Events = { [Type in keyof webhooks]: JsonBody<webhooks[Type]> }[keyof webhooks];

/** A delivery's body: the union of the document's webhook payloads (`unknown` if it describes none). */
export type WebhookEvent = [Events] extends [never] ? unknown : Events;

/**
 * A delivery's request headers, as a framework hands them over: a Fetch `Headers` (Next.js route
 * handlers, Hono, Bun, Workers), Node's `IncomingHttpHeaders` (`req.headers` of node:http, Express,
 * Fastify) or a plain record. Names of a record are matched in any case.
 */
export type WebhookHeaders = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The raw request body, exactly as received: text, or bytes (a `Buffer` is a `Uint8Array`). */
export type WebhookBody = string | Uint8Array;

export interface VerifyWebhookOptions {
  /** How far the delivery's timestamp may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The time to compare with, in milliseconds (default Date.now()). */
  now?: number;
}

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

const isFetchHeaders = (headers: WebhookHeaders): headers is { get(name: string): string | null } => typeof (headers as { get?: unknown }).get === 'function';

/** A header's first value, from any of the shapes above; `name` is in lower case. */
function header(headers: WebhookHeaders, name: string): string {
  let value: string | readonly string[] | null | undefined;
  if (isFetchHeaders(headers)) value = headers.get(name);
  else value = headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const text = typeof value === 'string' ? value : value?.[0];
  if (!text) throw new WebhookVerificationError(`missing ${name} header`);
  return text;
}

/** The body's bytes: the signature covers them, and a text body is signed as its UTF-8. */
const bytesOf = (body: WebhookBody): Uint8Array => (typeof body === 'string' ? new TextEncoder().encode(body) : body);

/** The HMAC key of a `whsec_...` secret: its base64 part, decoded. */
const keyOf = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

/**
 * Checks a delivery the Standard Webhooks way and returns its parsed body: a `v1,<base64>` signature
 * must be the HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed by the secret, and the
 * timestamp within the tolerance. `body` is the raw request body, exactly as received.
 */
export function verifyWebhook<T = WebhookEvent>(secret: string, body: WebhookBody, headers: WebhookHeaders, options: VerifyWebhookOptions = {}): T {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('malformed webhook-timestamp');
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs((options.now ?? Date.now()) / 1000 - Number(timestamp)) > tolerance)
    throw new WebhookVerificationError('webhook-timestamp outside the tolerance');
  const bytes = bytesOf(body);
  const expected = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.`).update(bytes).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no valid signature');
  return JSON.parse(new TextDecoder().decode(bytes)) as T;
}
