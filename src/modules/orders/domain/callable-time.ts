import { FixedOffsetZone, Zone } from 'luxon';
import { CallSchedule, hasNoCallableDay, normaliseSchedule, timeToMinutes } from './call-schedule';

/**
 * When may a lead be called next (planning, redial due times, why not callable), in its zone's real rules (IANA or a fixed
 * offset): a window is read on the local wall clock, also on DST days (docs/domain.md). Days are counted in local epoch ms and
 * mapped back by the zone's offset, so the host zone never matters; a skipped hour opens at the change, a repeated one counts twice.
 */

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;
/** Look-ahead: a full year plus today, so any weekly pattern recurs even across a leap year. */
const HORIZON_DAYS = 366;
/** Beyond any UTC offset (-12..+14): every instant of a local day lies within a day of its local-epoch bounds. */
const DAY_MARGIN_MS = MS_PER_DAY;

export interface NextCallableParams {
  now: Date;
  schedule: CallSchedule;
  /** Local calendar dates `yyyy-mm-dd` on which the lead must not be called. */
  holidays: string[];
  /** The lead's zone (IANA rules or a fixed offset); when absent, `utcOffsetHours`. */
  zone?: Zone;
  /** Lead's local offset from UTC in hours (may be fractional, e.g. 5.5); null = UTC. Used when `zone` is absent. */
  utcOffsetHours?: number | null;
}

/** The zone of the params: `zone`, else a fixed zone of `utcOffsetHours` (UTC when null). */
export function paramsZone(params: Pick<NextCallableParams, 'zone' | 'utcOffsetHours'>): Zone {
  if (params.zone) return params.zone;
  const hours = params.utcOffsetHours ?? 0;
  if (!Number.isFinite(hours)) throw new RangeError('utcOffsetHours must be finite');
  // Offsets are whole minutes in practice; rounding keeps window starts on minute boundaries.
  return FixedOffsetZone.instance(Math.round(hours * 60));
}

/** The zone's offset at the instant `ms`, in ms. */
function offsetMs(zone: Zone, ms: number): number {
  const minutes = zone.offset(ms);
  if (!Number.isFinite(minutes)) throw new RangeError(`zone ${zone.name} has no offset at ${ms}`);
  return minutes * MS_PER_MINUTE;
}

/**
 * Offsets at probe instants (local midnights shifted by a day, the same for every lead of a zone on
 * a given day), memoised per process: a luxon IANA offset costs about 6 µs (Intl formatToParts).
 * Exact: the key is the instant itself. Bounded by clearing.
 */
const probeCache = new Map<string, number>();
const PROBE_CACHE_MAX = 20_000;

function probeOffsetMs(zone: Zone, ms: number): number {
  if (zone.isUniversal) return offsetMs(zone, ms);
  const key = `${zone.name}@${ms}`;
  let value = probeCache.get(key);
  if (value === undefined) {
    value = offsetMs(zone, ms);
    if (probeCache.size >= PROBE_CACHE_MAX) probeCache.clear();
    probeCache.set(key, value);
  }
  return value;
}

/** The local calendar day of an instant: the local-epoch ms of its midnight. */
export function localDayStart(zone: Zone, ms: number): number {
  return Math.floor((ms + offsetMs(zone, ms)) / MS_PER_DAY) * MS_PER_DAY;
}

/** ISO weekday index of a local-epoch day: 0 = Monday ... 6 = Sunday. */
export function weekdayIndex(localDayStartMs: number): number {
  return (new Date(localDayStartMs).getUTCDay() + 6) % 7;
}

export function isoDate(localDayStartMs: number): string {
  return new Date(localDayStartMs).toISOString().slice(0, 10);
}

/**
 * First instant in (lo, hi] whose offset differs from lo's (the zone's offset at lo and hi differ;
 * lo and hi are whole minutes). Searched by whole minutes (transitions fall on them: about 12 offset
 * reads for three days), then to the millisecond only if the change is not on the minute.
 */
function transitionBetween(zone: Zone, lo: number, hi: number): number {
  // A zone changes offset at most once in the span searched (see windowIntervals): a change
  // found before inside (lo, hi] is this one.
  const known = transitionCache.get(zone.name) ?? [];
  const cached = known.find((t) => t > lo && t <= hi);
  if (cached !== undefined) return cached;
  const found = searchTransition(zone, lo, hi);
  if (transitionCache.size >= TRANSITION_CACHE_ZONES) transitionCache.clear();
  transitionCache.set(zone.name, [...known.slice(-(TRANSITIONS_PER_ZONE - 1)), found]);
  return found;
}

/** Offset changes found so far, per zone (the latest few): DST days search once per process. */
const transitionCache = new Map<string, number[]>();
const TRANSITION_CACHE_ZONES = 1_000;
const TRANSITIONS_PER_ZONE = 64;

function searchTransition(zone: Zone, lo: number, hi: number): number {
  const before = offsetMs(zone, lo);
  while (hi - lo > MS_PER_MINUTE) {
    const mid = lo + Math.floor((hi - lo) / MS_PER_MINUTE / 2) * MS_PER_MINUTE;
    if (offsetMs(zone, mid) === before) lo = mid;
    else hi = mid;
  }
  if (offsetMs(zone, hi - 1) !== before) {
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetMs(zone, mid) === before) lo = mid;
      else hi = mid;
    }
  }
  return hi;
}

/**
 * The instants whose wall clock lies in [startMin, endMin) of the local day `dayStart`, as up to
 * two half-open intervals [a, b) (two around a DST change: one per offset in force that day).
 * Assumes at most one offset change within the day and a day either side, true of every real zone.
 */
export function windowIntervals(zone: Zone, dayStart: number, startMin: number, endMin: number): [number, number][] {
  // Probes at the neighbouring local midnights (as instants they bracket the day whatever the offset): shared by consecutive days.
  const lo = dayStart - DAY_MARGIN_MS;
  const hi = dayStart + MS_PER_DAY + DAY_MARGIN_MS;
  const first = probeOffsetMs(zone, lo);
  const last = probeOffsetMs(zone, hi);
  const at = (offset: number): [number, number] => [dayStart + startMin * MS_PER_MINUTE - offset, dayStart + endMin * MS_PER_MINUTE - offset];
  if (first === last) return [at(first)];
  const change = transitionBetween(zone, lo, hi);
  const [a1, b1] = at(first);
  const [a2, b2] = at(last);
  return [
    [a1, Math.min(b1, change)],
    [Math.max(a2, change), b2],
  ];
}

/** The week's windows as [startMin, endMin) per ISO weekday, null for a day off. */
export type WeekWindows = ([number, number] | null)[];

export function weekWindows(schedule: CallSchedule): WeekWindows {
  return normaliseSchedule(schedule).map((window) => {
    if (window.length !== 2) return null;
    const startMin = timeToMinutes(window[0]) ?? NaN;
    const endMin = timeToMinutes(window[1]) ?? NaN;
    // Stored schedules are validated; a corrupt day is treated as a day off, not a crash.
    return startMin < endMin ? [startMin, endMin] : null;
  });
}

/** Holidays (`yyyy-mm-dd`) as local-epoch day starts, for a numeric lookup per day. */
export function holidayDays(holidays: readonly string[]): Set<number> {
  return new Set(holidays.map((d) => Date.parse(`${d}T00:00:00Z`)).filter(Number.isFinite));
}

/** The local window [startMin, endMin) of a day, or null when the day is off or a holiday. */
export function dayWindow(week: WeekWindows, holidays: ReadonlySet<number>, dayStart: number): [number, number] | null {
  return holidays.has(dayStart) ? null : week[weekdayIndex(dayStart)];
}

/** Earliest instant >= nowMs in the window of local day `dayStart`, or null. */
function earliestInDay(zone: Zone, dayStart: number, window: [number, number], nowMs: number): number | null {
  let best: number | null = null;
  for (const [a, b] of windowIntervals(zone, dayStart, window[0], window[1])) {
    const from = Math.max(a, nowMs);
    if (from < b && (best === null || from < best)) best = from;
  }
  return best;
}

/**
 * Earliest instant >= now inside its weekday's local window [start, end) and not on a local holiday: `now` itself when it qualifies
 * (sub-minute precision kept), else a window start (or the DST change that opens it). Null when nothing qualifies within 366 local days.
 */
export function nextCallableAt(params: NextCallableParams): Date | null {
  const nowMs = params.now.getTime();
  if (!Number.isFinite(nowMs)) throw new RangeError('now is not a valid date');
  const zone = paramsZone(params);
  if (hasNoCallableDay(params.schedule)) return null; // every day off: no need to scan the year
  const holidays = holidayDays(params.holidays);
  const week = weekWindows(params.schedule);

  const today = localDayStart(zone, nowMs);
  let found: number | null = null;
  let foundDay = 0;
  // From yesterday: where DST moves the clock back over midnight, yesterday's window can recur.
  for (let day = -1; day <= HORIZON_DAYS; day++) {
    const dayStart = today + day * MS_PER_DAY;
    const window = dayWindow(week, holidays, dayStart);
    const at = window ? earliestInDay(zone, dayStart, window, nowMs) : null;
    if (at !== null && (found === null || at < found)) {
      found = at;
      foundDay = dayStart;
    }
    // A later local day cannot start before this one ends, but the day after a find is checked
    // too (wall clocks moved back over midnight); past that, nothing earlier can come.
    if (found !== null && dayStart > foundDay) break;
  }
  return found === null ? null : new Date(found);
}
