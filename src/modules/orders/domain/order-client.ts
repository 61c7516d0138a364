import type { ClientAccess } from '../../../common/auth-context';
import type { FieldError } from '../../../common/domain-error';

/**
 * The clientId an order write stores, given the key's access and the body's `clientId`
 * (undefined: not sent). An unrestricted key sets what it sends (null: the call center's own; the
 * id is checked to exist elsewhere). A client key's orders are its client's: a create without
 * clientId gets it, and any other value (null included) is refused, never checked for existence,
 * so the answer tells nothing of other clients.
 */
export function orderClientOf(
  access: ClientAccess,
  sent: number | null | undefined,
  creating: boolean,
): { ok: true; value: number | null | undefined } | { ok: false; error: FieldError } {
  if (access.clientId === null) return { ok: true, value: sent };
  if (sent === undefined) return { ok: true, value: creating ? access.clientId : undefined };
  if (sent === access.clientId) return { ok: true, value: sent };
  return { ok: false, error: { field: 'clientId', message: `a client key's orders belong to its client: leave clientId out or send ${access.clientId}` } };
}
