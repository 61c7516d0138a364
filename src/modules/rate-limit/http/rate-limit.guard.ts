import { ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import { DomainError } from '../../../common/domain-error';
import type { AuthedRequest } from '../../../common/auth-context';
import { RATE_LIMIT_ERRORS } from '../domain/rate-limit.errors';

/** Injection token of the limiter; `null` when rate limiting is switched off. */
export const RATE_LIMITER = Symbol('RATE_LIMITER');

/** What the API key guard calls once it knows the client. */
export interface RateLimiter {
  canActivate(context: ExecutionContext): Promise<boolean>;
}

/**
 * @nestjs/throttler's guard with the service's policy: one budget per API key across all routes, the client address only without
 * a key, and the 429 as a domain error so the filter writes the envelope. `X-RateLimit-*` on every limited response (the 429 too, with
 * nothing remaining), `Retry-After` on a 429.
 */
export class RateLimitGuard extends ThrottlerGuard implements RateLimiter {
  protected override getTracker(raw: Record<string, unknown>): Promise<string> {
    const req = raw as unknown as AuthedRequest;
    return Promise.resolve(req.apiKey ? `key:${req.apiKey.id}` : `ip:${String(req.ip)}`);
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  protected override throwThrottlingException(context: ExecutionContext, limit: ThrottlerLimitDetail): Promise<void> {
    const { res } = this.getRequestResponse(context);
    this.setResponseHeader(res, `${this.headerPrefix}-Limit`, limit.limit);
    this.setResponseHeader(res, `${this.headerPrefix}-Remaining`, 0);
    this.setResponseHeader(res, `${this.headerPrefix}-Reset`, limit.timeToExpire);
    return Promise.reject(
      new DomainError('rate_limited', RATE_LIMIT_ERRORS.RATE_LIMITED, 'Too many requests for this API key, retry after the Retry-After seconds'),
    );
  }
}
