import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isScope, SCOPES, type Scope } from '../../../common/auth-context';
import type { FieldError } from '../../../common/domain-error';

const PREFIX_LENGTH = 12;

/** `cck_` + 43 url-safe chars (256 bits): shown once, stored only as a SHA-256 hash. */
export function generateApiKey(): string {
  return `cck_${randomBytes(32).toString('base64url')}`;
}

/** High-entropy tokens need no slow KDF: SHA-256 is the usual choice for API tokens. */
export function hashApiKey(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** Non-secret lookup handle, so that verification compares hashes of one candidate row. */
export function keyPrefix(raw: string): string {
  return raw.slice(0, PREFIX_LENGTH);
}

export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function parseScopes(csv: string): Scope[] {
  const scopes = csv
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = scopes.filter((s) => !isScope(s));
  if (bad.length > 0 || scopes.length === 0) {
    throw new Error(`Unknown scope(s): ${bad.join(', ') || '(none given)'}; valid: ${SCOPES.join(', ')}`);
  }
  return [...new Set(scopes)] as Scope[];
}

/**
 * A client key (one with a clientId) has the api scope only: admin and telephony routes reach
 * every client's data, so a key bound to one client must not have them.
 */
export function clientKeyScopeErrors(scopes: readonly Scope[], clientId: number | null): FieldError[] {
  if (clientId === null) return [];
  const others = scopes.filter((s) => s !== 'api');
  return others.length ? [{ field: 'scopes', message: `a client key (with a clientId) has the api scope only, not ${others.join(', ')}` }] : [];
}
