import { AsyncLocalStorage } from 'node:async_hooks';

/** One request's hold on its idempotency record: only the holder of `owner` may complete or release it. */
export interface IdempotencyClaim {
  apiKeyId: number;
  key: string;
  owner: string;
}

/** The claim, plus what the write's own transaction stored (set once that transaction committed). */
export interface ActiveClaim extends IdempotencyClaim {
  storedInTransaction?: { data: unknown };
}

/**
 * The claim of the request being handled, set by IdempotencyInterceptor around the route handler,
 * so the create use case can complete the record inside its own transaction (IdempotentWrites)
 * without every service and controller passing it along.
 */
export const idempotencyClaims = new AsyncLocalStorage<ActiveClaim>();
