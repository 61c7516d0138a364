import type { InputCheckedRequest } from './input-checks';

/**
 * Who is calling: the API key a request was authenticated with (set by the auth module's
 * ApiKeyGuard) and its scopes. Kept here because cross-cutting pieces (idempotency, rate limits,
 * the request observer) read it and must not reach into the auth module's HTTP layer.
 */
export const SCOPES = ['api', 'admin', 'telephony'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export interface ApiKeyPrincipal {
  id: number;
  name: string;
  scopes: Scope[];
}

/** A request after the ApiKeyGuard: `apiKey` is set on every non-public route. */
export type AuthedRequest = InputCheckedRequest & { apiKey?: ApiKeyPrincipal };
