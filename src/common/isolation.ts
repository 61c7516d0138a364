import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { type AuthedRequest, type ClientAccess, type Scope, UNRESTRICTED } from './auth-context';

/**
 * How a route treats a client key; every `api` route declares one, and the guard refuses client keys where none is (fail closed).
 * `scoped`: the service applies `ClientAccess` (foreign objects answer as missing); `shared`: reference data read alike;
 * `forbidden`: reaches every client at once (public and group notifications, shared attempt groups), 403. See docs/architecture.md.
 */
export type IsolationRule = 'scoped' | 'shared' | 'forbidden';

export const ISOLATION_RULE = 'auth:isolation';

export const Isolation = (rule: IsolationRule) => SetMetadata(ISOLATION_RULE, rule);

/** The request's `ClientAccess`, from the key the guard authenticated (unrestricted on public routes). */
export const Access = createParamDecorator((_data: unknown, ctx: ExecutionContext): ClientAccess => {
  const key = ctx.switchToHttp().getRequest<AuthedRequest>().apiKey;
  return key?.clientId != null ? { clientId: key.clientId } : UNRESTRICTED;
});

/** The scopes of the request's key (none on public routes), for a service rule that depends on one beyond the route's scope. */
export const KeyScopes = createParamDecorator((_data: unknown, ctx: ExecutionContext): readonly Scope[] => {
  return ctx.switchToHttp().getRequest<AuthedRequest>().apiKey?.scopes ?? [];
});
