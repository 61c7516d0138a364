import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { type AuthedRequest, type ClientAccess, UNRESTRICTED } from './auth-context';

/**
 * How a route treats a client key (a key bound to one client). Every route of scope `api` declares
 * one; the API-key guard refuses client keys on a route that declares none (fail closed).
 * - `scoped`: the service applies the request's `ClientAccess`: lists hold only the client's data,
 *   another client's object answers as one that does not exist (404, or the 400 of a missing order).
 * - `shared`: reference data every client reads alike (custom field definitions, status catalogues).
 * - `forbidden`: reaches every client at once (public and group notifications, shared attempt
 *   groups): a client key gets 403.
 */
export type IsolationRule = 'scoped' | 'shared' | 'forbidden';

export const ISOLATION_RULE = 'auth:isolation';

export const Isolation = (rule: IsolationRule) => SetMetadata(ISOLATION_RULE, rule);

/** The request's `ClientAccess`, from the key the guard authenticated (unrestricted on public routes). */
export const Access = createParamDecorator((_data: unknown, ctx: ExecutionContext): ClientAccess => {
  const key = ctx.switchToHttp().getRequest<AuthedRequest>().apiKey;
  return key?.clientId != null ? { clientId: key.clientId } : UNRESTRICTED;
});
