import { orderDayBounds } from '../../leads/domain/qualified-limit';
import { nextCallableAt } from '../../orders/domain/callable-time';
import type { OrderSettings } from '../../orders/domain/order-settings';
import { planningZone } from '../../orders/domain/time-zone';

/**
 * Why a lead that wants a call is not planned now, stored with the lead (`dialingHold`): each holds while its input holds.
 * `dnc` and `no_consent` stop the lead until the entry goes or consent is given; `daily_attempt_cap` moves its call to the
 * next local day's window (the call stays planned, the hold ends with the day).
 */
export const HOLD_REASONS = ['dnc', 'no_consent', 'daily_attempt_cap'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

export const isHoldReason = (value: unknown): value is HoldReason => typeof value === 'string' && (HOLD_REASONS as readonly string[]).includes(value);

/** What of an order decides its leads' calls. */
export type DialingRules = Pick<
  OrderSettings,
  'callSchedule' | 'holidays' | 'ignoreLeadTimezone' | 'defaultUtcOffset' | 'defaultTimeZone' | 'consentRequired' | 'maxAttemptsPerDay'
>;

export interface DialingHold {
  reasons: HoldReason[];
  since: Date;
}

/** Every input of the decision: nothing else decides whether and when a lead may be dialled. */
export interface DialingFacts {
  now: Date;
  order: DialingRules;
  lead: {
    timeZone: string | null;
    utcOffset: number;
    hasConsent: boolean;
    /**
     * The earliest moment the lead is wanted: when it was created or a redial falls due, or an integrator's `call_timestamp`.
     * Null: dialling stopped (answered, attempts exhausted).
     */
    dialAfter: Date | null;
  };
  /** An active do-not-call entry (global, the order's client's, the order's) lists the lead's number. */
  dncListed: boolean;
  /** When the lead's calls started (at least those of the last two days; older ones are ignored). */
  callStarts: readonly Date[];
  /** The hold stored now: its `since` is kept while the lead stays held. */
  previousHold: DialingHold | null;
  /** The planned moment stored now: kept when it is still right (the same moment, or already due and still due now). */
  previousPlan?: Date | null;
}

export interface DialingDecision {
  /** The next moment the lead may be dialled; null: held by `hold`, or dialling stopped. */
  planningCallAt: Date | null;
  hold: DialingHold | null;
  /** The daily cap holds the lead until then (its next local day's start); null: not capped. */
  capUntil: Date | null;
}

const stopped = { planningCallAt: null, hold: null, capUntil: null } as const;

/**
 * The one rule of when a lead may be dialled next: a number on a list or missing consent holds it unplanned (a stopped lead too,
 * so it says why it may not be called); a stopped lead stays stopped; otherwise its call goes to the first moment of its window at or after both now and the moment it is wanted, and,
 * once its calls of today (its local day) reach the order's `maxAttemptsPerDay`, not before its next local day.
 */
export function decideDialing(f: DialingFacts): DialingDecision {
  const since = (reasons: HoldReason[]): DialingHold => ({ reasons, since: f.previousHold?.since ?? f.now });
  const blocking: HoldReason[] = [];
  if (f.dncListed) blocking.push('dnc');
  if (f.order.consentRequired && !f.lead.hasConsent) blocking.push('no_consent');
  // Also on a stopped lead: it says why the lead may not be called, whatever its own dialling says.
  if (blocking.length > 0) return { planningCallAt: null, hold: since(blocking), capUntil: null };
  if (f.lead.dialAfter === null) return stopped;

  const zone = planningZone(f.order, f.lead);
  const window = { schedule: f.order.callSchedule, holidays: f.order.holidays, zone };
  const from = f.lead.dialAfter > f.now ? f.lead.dialAfter : f.now;
  const at = nextCallableAt({ now: from, ...window });
  if (at === null) return stopped;
  const cap = f.order.maxAttemptsPerDay;
  const today = cap === null ? null : orderDayBounds(f.now, zone);
  if (cap === null || !today || at >= today.end || callsWithin(f.callStarts, today) < cap) {
    return { planningCallAt: kept(f, at), hold: null, capUntil: null };
  }
  const next = nextCallableAt({ now: today.end, ...window });
  return next === null ? stopped : { planningCallAt: kept(f, next), hold: since(['daily_attempt_cap']), capUntil: today.end };
}

/** The stored moment when it says the same as `at`: a lead due before now and due now keeps its moment (no rewrite as time passes). */
function kept(f: DialingFacts, at: Date): Date {
  const p = f.previousPlan;
  if (!p) return at;
  return p.getTime() === at.getTime() || (p <= f.now && at.getTime() === f.now.getTime()) ? p : at;
}

function callsWithin(starts: readonly Date[], day: { start: Date; end: Date }): number {
  let n = 0;
  for (const s of starts) if (s >= day.start && s < day.end) n++;
  return n;
}

/** The hold as presented at `now`: a daily cap whose day has ended holds no more (the call it moved is due). */
export function holdAt(hold: DialingHold | null, capUntil: Date | null, now: Date): DialingHold | null {
  if (!hold) return null;
  const reasons = hold.reasons.filter((r) => r !== 'daily_attempt_cap' || (capUntil !== null && capUntil > now));
  return reasons.length ? { reasons, since: hold.since } : null;
}
