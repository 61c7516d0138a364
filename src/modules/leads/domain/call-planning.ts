import {
  CallSchedule,
  hasNoCallableDay,
  normaliseSchedule,
  timeToMinutes,
} from '../../orders/domain/call-schedule';

/**
 * When may a lead be called next? Used for `planningCallDateTime` on create/reschedule and to
 * clip redial due times into the order's schedule.
 *
 * The lead's local time is UTC + a fixed offset (leads carry `utcOffset` hours, not a zone, so
 * there is no DST to model). Arithmetic is done on "local epoch milliseconds": the UTC epoch
 * shifted by the offset, then read with getUTC* so the host time zone never matters.
 */

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;
/** Look-ahead: a full year plus today, so any weekly pattern recurs even across a leap year. */
const HORIZON_DAYS = 366;

export interface NextCallableParams {
  now: Date;
  schedule: CallSchedule;
  /** Local calendar dates `yyyy-mm-dd` on which the lead must not be called. */
  holidays: string[];
  /** Lead's local offset from UTC in hours (may be fractional, e.g. 5.5); null = UTC. */
  utcOffsetHours: number | null;
}

/** ISO weekday index of a local-epoch day: 0 = Monday ... 6 = Sunday. */
function weekdayIndex(localDayStartMs: number): number {
  return (new Date(localDayStartMs).getUTCDay() + 6) % 7;
}

function isoDate(localDayStartMs: number): string {
  return new Date(localDayStartMs).toISOString().slice(0, 10);
}

/**
 * Earliest instant >= now inside the local window [start, end) of its weekday and not on a
 * local holiday (`[]` is a day off; "any time" is 00:00-24:00 on every day, see call-schedule.ts).
 * If `now` itself qualifies it is returned unchanged (sub-minute precision kept); otherwise the
 * result is a window start, hence whole minutes. Null when nothing qualifies within the next 366
 * local days, e.g. every day off.
 */
export function nextCallableAt(params: NextCallableParams): Date | null {
  const nowMs = params.now.getTime();
  if (!Number.isFinite(nowMs)) throw new RangeError('now is not a valid date');
  const offsetHours = params.utcOffsetHours ?? 0;
  if (!Number.isFinite(offsetHours)) throw new RangeError('utcOffsetHours must be finite');
  // Offsets are whole minutes in practice; rounding keeps window starts on minute boundaries.
  const offsetMs = Math.round(offsetHours * 60) * MS_PER_MINUTE;

  if (hasNoCallableDay(params.schedule)) return null; // every day off: no need to scan the year
  const holidays = new Set(params.holidays);
  const schedule = normaliseSchedule(params.schedule);

  const localNow = nowMs + offsetMs;
  const todayStart = Math.floor(localNow / MS_PER_DAY) * MS_PER_DAY;

  for (let day = 0; day <= HORIZON_DAYS; day++) {
    const dayStart = todayStart + day * MS_PER_DAY;
    if (holidays.has(isoDate(dayStart))) continue;

    const window = schedule[weekdayIndex(dayStart)];
    if (window.length !== 2) continue;
    const startMin = timeToMinutes(window[0]) ?? NaN;
    const endMin = timeToMinutes(window[1]) ?? NaN;
    // Stored schedules are validated; a corrupt day is treated as a day off, not a crash.
    if (!(startMin < endMin)) continue;

    const windowEnd = dayStart + endMin * MS_PER_MINUTE;
    if (windowEnd <= localNow) continue; // today's window already over
    const windowStart = dayStart + startMin * MS_PER_MINUTE;
    return new Date(Math.max(windowStart, localNow) - offsetMs);
  }
  return null;
}
