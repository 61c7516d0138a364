import { createHmac, createSecretKey, KeyObject, randomBytes } from 'node:crypto';
import { Cache } from '../../../common/cache';

/** Prefix of every webhook secret (Standard Webhooks): `whsec_` + base64 of the key bytes. */
export const SECRET_PREFIX = 'whsec_';
/** Random bytes per secret (the Standard Webhooks minimum is 24; 32 is an HMAC-SHA256 block's worth of entropy). */
export const SECRET_BYTES = 32;

/** A new secret: `whsec_` + base64 of SECRET_BYTES random bytes. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The HMAC key of a secret: its base64 part, decoded. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/**
 * HMAC keys made once per secret: turning the bytes into a key object on every signature costs a
 * tenth of a delivery's CPU. Bounded in size and time like every cache here.
 */
const hmacKeys = new Cache<string, KeyObject>({ ttlMs: 600_000, max: 1000 });

function hmacKey(secret: string): KeyObject {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = createSecretKey(secretKey(secret));
    hmacKeys.set(secret, key);
  }
  return key;
}

/** `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` for one secret. */
export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', hmacKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-signature` header: one `v1,...` per valid secret, space-separated (during a rotation, two). */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets.map((s) => signatureOf(s, id, timestampSeconds, body)).join(' ');
}

/** The three Standard Webhooks headers of one attempt. */
export function webhookHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatureHeader(secrets, id, timestampSeconds, body),
  };
}
