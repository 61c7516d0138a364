import type { Zone } from 'luxon';
import { nextCallableAt } from '../../orders/domain/callable-time';
import type { CallSchedule } from '../../orders/domain/call-schedule';
import { orderDayBounds } from '../../leads/domain/qualified-limit';

/** The local day (in `zone`) of an instant: the window its calls are counted in for the daily cap. */
export function leadDayBounds(at: Date, zone: Zone): { start: Date; end: Date } {
  return orderDayBounds(at, zone);
}

export interface DailyCapParams {
  /** The next call as planned without the cap; null: dialing stopped. */
  planned: Date | null;
  /** Calls of the lead recorded on the local day of `at`, this one included. */
  callsToday: number;
  /** The order's maxAttemptsPerDay; null: no cap. */
  maxAttemptsPerDay: number | null;
  at: Date;
  window: { schedule: CallSchedule; holidays: string[]; zone: Zone };
}

/**
 * The next call under the daily attempt cap: once the lead's calls of its local day reach the cap,
 * no earlier than its next local day's window. `capUntil`: that next day's start, or null when uncapped.
 */
export function applyDailyCap(p: DailyCapParams): { planningCallAt: Date | null; capUntil: Date | null } {
  if (p.planned === null || p.maxAttemptsPerDay === null || p.callsToday < p.maxAttemptsPerDay) return { planningCallAt: p.planned, capUntil: null };
  const nextDay = leadDayBounds(p.at, p.window.zone).end;
  if (p.planned >= nextDay) return { planningCallAt: p.planned, capUntil: null };
  const planningCallAt = nextCallableAt({ now: nextDay, schedule: p.window.schedule, holidays: p.window.holidays, zone: p.window.zone });
  return { planningCallAt, capUntil: planningCallAt === null ? null : nextDay };
}
