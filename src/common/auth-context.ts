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
  /** A client key's client: it reaches only that client's orders and what lies under them. Null: unrestricted. */
  clientId: number | null;
}

/**
 * What a request may reach, handed by controllers to services (`@Access()`): every client's data
 * (`clientId: null`) or one client's. Services apply it to every read and write of customer data.
 */
export interface ClientAccess {
  clientId: number | null;
}

/** The access of unrestricted keys, and of the service's own work (seeds, workers). */
export const UNRESTRICTED: ClientAccess = Object.freeze({ clientId: null });

/** Whether `access` may reach an order of `orderClientId` (null: the call center's own order). */
export function reachesClient(access: ClientAccess, orderClientId: number | null): boolean {
  return access.clientId === null || access.clientId === orderClientId;
}

/** A request after the ApiKeyGuard: `apiKey` is set on every non-public route. */
export type AuthedRequest = InputCheckedRequest & { apiKey?: ApiKeyPrincipal };
