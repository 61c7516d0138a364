import type { Zone } from 'luxon';
import { MINUTES_PER_DAY } from '../../orders/domain/call-schedule';
import { localDayStart, paramsZone, windowIntervals } from '../../orders/domain/callable-time';
import type { LeadStatusCategory } from './lead-status';

/**
 * The order's calendar day containing `now`, as [start, end) instants: local midnight to local
 * midnight in the order's zone (23 or 25 hours on DST days) or at a fixed offset in hours.
 */
export function orderDayBounds(now: Date, zone: Zone | number): { start: Date; end: Date } {
  const z = typeof zone === 'number' ? paramsZone({ utcOffsetHours: zone }) : zone;
  const intervals = windowIntervals(z, localDayStart(z, now.getTime()), 0, MINUTES_PER_DAY).filter(([a, b]) => a < b);
  const start = Math.min(...intervals.map(([a]) => a));
  const end = Math.max(...intervals.map(([, b]) => b));
  return { start: new Date(start), end: new Date(end) };
}

/** Does a status change make the lead count towards today's qualified leads? */
export function entersQualified(from: LeadStatusCategory, to: LeadStatusCategory): boolean {
  return from !== 'qualified' && to === 'qualified';
}

/**
 * `qualified_at` after a status change: set when the lead enters a qualified status, kept while
 * it moves between qualified statuses, cleared when it leaves (it no longer counts to the limit).
 */
export function qualifiedAtAfter(from: LeadStatusCategory, to: LeadStatusCategory, current: Date | null, now: Date): Date | null {
  if (to !== 'qualified') return null;
  return from === 'qualified' ? current : now;
}

/** Room for one more qualified lead today? `limit` null = no limit. */
export function withinDailyLimit(qualifiedToday: number, limit: number | null): boolean {
  return limit === null || qualifiedToday < limit;
}
