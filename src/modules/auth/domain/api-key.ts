import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isScope, SCOPES, type Scope } from '../../../common/auth-context';

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
