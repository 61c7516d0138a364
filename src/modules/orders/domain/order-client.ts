import type { ClientAccess } from '../../../common/auth-context';
import type { FieldError } from '../../../common/domain-error';

/**
 * The clientId an order write stores (body `clientId` undefined: not sent). An unrestricted key sets what it sends; a client
 * key's orders are its client's, and any other value (null included) is refused unchecked, so the answer tells nothing of others.
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
