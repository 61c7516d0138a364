import { isoDateTime } from '../../../common/dates';
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

/**
 * One write of one list as dnc.added / dnc.removed events carry it: the numbers of that write, what it asked for, and where it
 * came from (`call` and `callId`: an opt-out on a call; a removal's `source` is `call` when an opt-out's entry is among the
 * numbers removed, `callId` its call when it is the only one).
 */
export interface DncChange extends DncList {
  phones: string[];
  expiresAt: string | null;
  reason: string | null;
  source: DncSource;
  callId: number | null;
}

/** The reason of a dnc.removed an expiry writes. */
export const EXPIRED_REASON = 'expired';

/** An entry taken off a list (removed or expired), as the removal's event needs it. */
export interface DncRemovedEntry extends DncList {
  phone: string;
  expiresAt: Date | null;
  source: DncSource;
  callId: number | null;
}

/**
 * The dnc.removed changes of removed entries: one per list (and expiry, for expiries, so each says when), numbers sorted.
 * `reason` is the removal's (EXPIRED_REASON for expiries, whose `expiresAt` is the one reached; null for requests).
 */
export function removalChanges(entries: readonly DncRemovedEntry[], reason: string | null, byExpiry: boolean): DncChange[] {
  const groups = new Map<string, DncRemovedEntry[]>();
  for (const e of entries) {
    const key = JSON.stringify([e.scope, e.orderId, e.clientId, byExpiry ? (e.expiresAt?.toISOString() ?? null) : null]);
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return [...groups.values()].map((group) => {
    const optOuts = group.filter((e) => e.source === 'call');
    const [{ scope, orderId, clientId }] = group;
    return {
      scope,
      orderId,
      clientId,
      phones: [...new Set(group.map((e) => e.phone))].sort(),
      expiresAt: byExpiry && group[0].expiresAt ? isoDateTime(group[0].expiresAt) : null,
      reason,
      source: optOuts.length > 0 ? 'call' : 'api',
      callId: optOuts.length === 1 ? optOuts[0].callId : null,
    };
  });
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
