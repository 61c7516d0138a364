import { CanActivate, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '../../../common/domain-error';
import type { AuthedRequest, Scope } from '../../../common/auth-context';
import { raiseDeferredInputError } from '../../../common/input-checks';
import { ApiKeysService } from '../api-keys.service';
import { AUTH_ERRORS } from '../domain/auth.errors';
import { RATE_LIMITER, type RateLimiter } from '../../rate-limit/http/rate-limit.guard';
import { PUBLIC_ROUTE, REQUIRED_SCOPE } from './auth.decorators';
import { ISOLATION_RULE, type IsolationRule } from '../../../common/isolation';

/** What a route asks of its caller: nothing (@Public) or a key with this scope; and what a client key may do there. */
type RouteAccess = { public: true } | { public: false; scope: Scope; isolation: IsolationRule | undefined };

/**
 * Global guard: every route needs `X-Api-Key` with the route's scope unless marked @Public.
 * Once the key is known, the rate limiter (when enabled) counts the request against it.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  /**
   * Each handler's access rule, read from its decorators on its first request: the metadata is
   * fixed once the app is built, and four reflection lookups per request would be a visible share of
   * a lead read's CPU.
   */
  private readonly access = new WeakMap<object, WeakMap<object, RouteAccess>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeysService,
    @Optional() @Inject(RATE_LIMITER) private readonly limiter: RateLimiter | null = null,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    const access = this.accessOf(context);
    if (access.public) {
      raiseDeferredInputError(req);
      return true;
    }
    const required = access.scope;
    const header = req.headers['x-api-key'];
    const principal = await this.keys.verify(Array.isArray(header) ? header[0] : header);
    if (!principal) throw new DomainError('unauthenticated', AUTH_ERRORS.API_KEY_INVALID, 'Missing or unknown API key (X-Api-Key header)');
    if (!principal.scopes.includes(required)) {
      throw new DomainError('forbidden', AUTH_ERRORS.API_KEY_SCOPE, `This API key lacks the '${required}' scope`);
    }
    if (principal.clientId !== null && (access.isolation === undefined || access.isolation === 'forbidden')) {
      throw new DomainError('forbidden', AUTH_ERRORS.CLIENT_KEY_FORBIDDEN, 'A client key cannot use this route: it reaches every client');
    }
    req.apiKey = principal;
    // Counted against the key even when the input is then refused.
    const allowed = this.limiter ? await this.limiter.canActivate(context) : true;
    raiseDeferredInputError(req);
    return allowed;
  }

  private accessOf(context: ExecutionContext): RouteAccess {
    // By class and handler: a subclass may inherit a handler under other class-level decorators.
    const cls = context.getClass();
    const handler = context.getHandler();
    let ofClass = this.access.get(cls);
    if (!ofClass) this.access.set(cls, (ofClass = new WeakMap()));
    let access = ofClass.get(handler);
    if (!access) {
      const targets = [handler, cls];
      access = this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)
        ? { public: true }
        : {
            public: false,
            scope: this.reflector.getAllAndOverride<Scope>(REQUIRED_SCOPE, targets) ?? 'api',
            isolation: this.reflector.getAllAndOverride<IsolationRule | undefined>(ISOLATION_RULE, targets),
          };
      ofClass.set(handler, access);
    }
    return access;
  }
}
