import type { FieldError } from '../../../common/domain-error';
import { normalisePhone } from '../../leads/domain/phone';

export const DNC_SCOPES = ['global', 'client', 'order'] as const;
export type DncScope = (typeof DNC_SCOPES)[number];
export const DNC_SOURCES = ['api', 'call'] as const;
export type DncSource = (typeof DNC_SOURCES)[number];

export const MAX_DNC_PHONES = 1000;
export const MAX_DNC_REASON_LENGTH = 255;

/** One do-not-call list: the call center's (global), a client's, or an order's. */
export interface DncList {
  scope: DncScope;
  orderId: number | null;
  clientId: number | null;
}

/** A number on a list; active while `expiresAt` is null or in the future. */
export interface DncEntry extends DncList {
  id: number;
  phone: string;
  expiresAt: Date | null;
  reason: string | null;
  source: DncSource;
  callId: number | null;
  createdAt: Date;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** The numbers in E.164 as a lead's phone is stored, each once; every invalid one named `phones[i]`. */
export function normalisePhones(phones: readonly unknown[]): Checked<string[]> {
  const errors: FieldError[] = [];
  const out = new Set<string>();
  phones.forEach((p, i) => {
    const parsed = normalisePhone(p);
    if (parsed.ok) out.add(parsed.e164);
    else errors.push({ field: `phones[${i}]`, message: parsed.message });
  });
  return errors.length ? { ok: false, errors } : { ok: true, value: [...out] };
}

/** An expiry must lie in the future (absent: the entry never expires). */
export function checkExpiry(expiresAt: string | undefined, now: Date): Checked<Date | null> {
  if (expiresAt === undefined) return { ok: true, value: null };
  const at = new Date(expiresAt);
  if (Number.isNaN(at.getTime()) || at <= now) return { ok: false, errors: [{ field: 'expiresAt', message: 'must be a date-time in the future' }] };
  return { ok: true, value: at };
}
