import type { DialingHold } from '../../dialing/domain/dialing-decision';
import type { DialStop } from '../../dialing/domain/redial-rule';
import { DateTime, Zone } from 'luxon';
import { CallSchedule, hasNoCallableDay } from '../../orders/domain/call-schedule';
import { dayWindow, holidayDays, localDayStart, nextCallableAt, weekWindows, windowIntervals } from '../../orders/domain/callable-time';
import { orderDayBounds } from './qualified-limit';

/** Why a lead is not callable now (GET /v2/lead/callable/{leadId}/), every code that applies. */
export const NOT_CALLABLE_REASONS = [
  /** All seven days of the order's schedule are off. */
  'no_schedule',
  /** Today (the lead's local day) has no window. */
  'day_off',
  /** Today, in the lead's zone, is a holiday of the order. */
  'holiday',
  /** Today has a window and now is outside it. */
  'outside_hours',
  /** Inside hours, but the planned call is later. */
  'not_yet_due',
  /** No call is planned: answered, or attempts exhausted. */
  'dialing_stopped',
  /** No call is planned: the last call ended in a final outcome (its status's redial rule, or the order's for it). */
  'final_outcome',
  /** No call is planned: the lead's calls ending in one outcome reached that outcome's maxAttempts. */
  'outcome_attempts_exhausted',
  /** The order's autoDialingEnabled is false. */
  'order_autodialing_disabled',
  /** The order's qualified leads today reached qualifiedLeadsPerDayLimit. */
  'qualified_limit_reached',
  /** The order requires consent and the lead has none. */
  'no_consent',
  /** The lead's calls of its local day reached maxAttemptsPerDay: it waits for its next local day. */
  'daily_attempt_cap',
  /** An active do-not-call entry covers the lead's number (global, its order's client's or its order's list). */
  'dnc',
] as const;
export type NotCallableReason = (typeof NOT_CALLABLE_REASONS)[number];

export interface CallableFacts {
  now: Date;
  /** The zone the order's windows are read in for this lead (see planningZone). */
  zone: Zone;
  /** The order's zone: its day for the daily limit. */
  orderZone: Zone;
  schedule: CallSchedule;
  /** yyyy-mm-dd */
  holidays: string[];
  planningCallAt: Date | null;
  autoDialingEnabled: boolean;
  qualifiedToday: number;
  qualifiedLeadsPerDayLimit: number | null;
  /** The dialing decision's hold as stored, at `now` (holdAt): do-not-call, missing consent, the daily cap. */
  hold: DialingHold | null;
  /** The outcome rule that stopped the dialling, as stored. */
  dialStop?: DialStop | null;
}

export interface Callability {
  callableNow: boolean;
  reasons: NotCallableReason[];
  /** Next moment the lead may be called; null when none is known (dialing stopped, no schedule, autodialing off). */
  nextCallableAt: Date | null;
}

/** Is `now` inside today's window (in `zone`), holidays aside? */
function insideWindow(zone: Zone, schedule: CallSchedule, now: number): { hasWindow: boolean; inside: boolean } {
  const today = localDayStart(zone, now);
  const window = dayWindow(weekWindows(schedule), new Set(), today);
  if (!window) return { hasWindow: false, inside: false };
  const inside = windowIntervals(zone, today, window[0], window[1]).some(([a, b]) => a <= now && now < b);
  return { hasWindow: true, inside };
}

/**
 * Why a lead is or is not callable now (`reasons` empty exactly when `callableNow`): the stored dialing decision (its planned call
 * and hold) read at `now`, with the order's switches (autodialing, today's qualified limit) and where `now` falls in the window. `nextCallableAt`: the first moment in the
 * window, not on a holiday, not before the planned call, and not before the order's next day once today's qualified limit is reached.
 */
export function explainCallable(f: CallableFacts): Callability {
  const now = f.now.getTime();
  const reasons: NotCallableReason[] = [];
  const noSchedule = hasNoCallableDay(f.schedule);
  if (noSchedule) reasons.push('no_schedule');
  const today = insideWindow(f.zone, f.schedule, now);
  if (!today.hasWindow) reasons.push('day_off');
  const holiday = holidayDays(f.holidays).has(localDayStart(f.zone, now));
  if (holiday) reasons.push('holiday');
  if (today.hasWindow && !today.inside) reasons.push('outside_hours');
  // Inside hours: in today's window on a working day (a holiday has no hours).
  if (today.inside && !holiday && f.planningCallAt !== null && f.planningCallAt.getTime() > now) reasons.push('not_yet_due');
  const held = new Set(f.hold?.reasons ?? []);
  if (held.has('no_consent')) reasons.push('no_consent');
  else if (f.planningCallAt === null && !held.has('dnc')) reasons.push(f.dialStop ?? 'dialing_stopped');
  if (!f.autoDialingEnabled) reasons.push('order_autodialing_disabled');
  const limitReached = f.qualifiedLeadsPerDayLimit !== null && f.qualifiedToday >= f.qualifiedLeadsPerDayLimit;
  if (limitReached) reasons.push('qualified_limit_reached');
  if (held.has('daily_attempt_cap')) reasons.push('daily_attempt_cap');
  if (held.has('dnc')) reasons.push('dnc');

  let next: Date | null = null;
  if (f.planningCallAt !== null && !noSchedule && f.autoDialingEnabled) {
    let from = Math.max(now, f.planningCallAt.getTime());
    if (limitReached) from = Math.max(from, orderDayBounds(f.now, f.orderZone).end.getTime());
    next = nextCallableAt({ now: new Date(from), schedule: f.schedule, holidays: f.holidays, zone: f.zone });
  }
  return { callableNow: reasons.length === 0, reasons, nextCallableAt: next };
}

/** An instant as ISO 8601 in a zone, with its offset and no milliseconds ("2026-03-10T14:30:00+05:30"). */
export function localIso(at: Date, zone: Zone): string {
  return DateTime.fromJSDate(at, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}
