import type { LeadStatusCategory } from './lead-status';

const MS_PER_DAY = 86_400_000;

/** The order's calendar day containing `now`, as [start, end) instants; the order's day is UTC + offset hours. */
export function orderDayBounds(now: Date, offsetHours: number): { start: Date; end: Date } {
  const offsetMs = Math.round(offsetHours * 60) * 60_000;
  const local = now.getTime() + offsetMs;
  const start = Math.floor(local / MS_PER_DAY) * MS_PER_DAY - offsetMs;
  return { start: new Date(start), end: new Date(start + MS_PER_DAY) };
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
