/**
 * Weekly call schedule: index 0 = Monday ... 6 = Sunday; a day is `[]` (day off) or a half-open local window `[start, end)` of
 * "HH:MM" strings, "24:00" only as an end (no wrap past midnight). Seven `[]` never calls; "any time" is 00:00-24:00 every day;
 * an order without a schedule gets DEFAULT_CALL_SCHEDULE, so leads are never planned at night by omission (docs/domain.md).
 */

export type DayWindow = [string, string] | [];
export type CallSchedule = DayWindow[];

export const DAYS_PER_WEEK = 7;
export const MINUTES_PER_DAY = 24 * 60;

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

// Strict two-digit form only: the stored/returned value is exactly what the client sent, so
// accepting "9:00" would leak a second spelling into responses.
const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes since local midnight for "HH:MM" (00:00-23:59, plus "24:00" = 1440); null if malformed. */
export function timeToMinutes(value: string): number | null {
  if (value === '24:00') return MINUTES_PER_DAY;
  const m = HHMM.exec(value);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

export type ScheduleValidation = { ok: true; value: CallSchedule } | { ok: false; message: string };

/**
 * Validates client input. Item numbers in messages are array positions (0-based, as in the
 * JSON the client sent), followed by the weekday name so they are unambiguous.
 */
export function validateCallSchedule(input: unknown): ScheduleValidation {
  if (!Array.isArray(input)) return { ok: false, message: 'must be an array' };
  if (input.length > DAYS_PER_WEEK) {
    return { ok: false, message: `must have at most ${DAYS_PER_WEEK} items` };
  }
  const days: CallSchedule = [];
  for (let i = 0; i < input.length; i++) {
    const item: unknown = input[i];
    const where = `item ${i} (${DAY_NAMES[i]})`;
    if (!Array.isArray(item)) return { ok: false, message: `${where}: must be an array` };
    if (item.length === 0) {
      days.push([]);
      continue;
    }
    if (item.length !== 2) {
      return { ok: false, message: `${where}: must be [] or [start, end]` };
    }
    const [start, end] = item as unknown[];
    if (typeof start !== 'string' || start === '24:00' || timeToMinutes(start) === null) {
      return { ok: false, message: `${where}: start must be a time HH:MM (00:00-23:59)` };
    }
    if (typeof end !== 'string' || timeToMinutes(end) === null) {
      return { ok: false, message: `${where}: end must be a time HH:MM (00:00-24:00)` };
    }
    if (timeToMinutes(start)! >= timeToMinutes(end)!) {
      return { ok: false, message: `${where}: start must be before end` };
    }
    days.push([start, end]);
  }
  return { ok: true, value: normaliseSchedule(days) };
}

/** Always exactly 7 items: missing days become `[]`, extra items are dropped; items are copied. */
export function normaliseSchedule(s: readonly DayWindow[] | null | undefined): CallSchedule {
  const out: CallSchedule = [];
  for (let i = 0; i < DAYS_PER_WEEK; i++) {
    const day = s?.[i];
    out.push(day && day.length === 2 ? [day[0], day[1]] : []);
  }
  return out;
}

/** The schedule of an order created without one: every day 09:00-21:00 in the lead's local time. */
export const DEFAULT_CALL_SCHEDULE: CallSchedule = Array.from({ length: DAYS_PER_WEEK }, (): DayWindow => ['09:00', '21:00']);

/** True when no day has a window: such an order never calls. */
export function hasNoCallableDay(s: readonly DayWindow[] | null | undefined): boolean {
  return !s || s.every((day) => !day || day.length === 0);
}
