import type { FieldError } from '../../../common/domain-error';
import { normalisePhone } from '../../leads/domain/phone';

export type CalledNumber = { ok: true; phone: string | null } | { ok: false; errors: FieldError[] };

/**
 * The number an opt-out lists, as do-not-call lists hold it (E.164): the number the call reached, `clientPhone` (digits, `+`
 * optional). Null when the platform sent none: the lead's phone as the call is recorded is the number called.
 */
export function calledNumber(clientPhone: string | undefined): CalledNumber {
  if (clientPhone === undefined) return { ok: true, phone: null };
  const parsed = normalisePhone(clientPhone.startsWith('+') ? clientPhone : `+${clientPhone}`);
  if (parsed.ok) return { ok: true, phone: parsed.e164 };
  return { ok: false, errors: [{ field: 'clientPhone', message: `an opt-out lists the number called, which ${parsed.message}` }] };
}
