import fc from 'fast-check';
import { DateTime, FixedOffsetZone } from 'luxon';
import { CallSchedule, DayWindow } from './call-schedule';
import { nextCallableAt } from './callable-time';

const WEEKDAYS_9_18: CallSchedule = [['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], [], []];
const NONE: CallSchedule = [[], [], [], [], [], [], []];

const at = (iso: string) => new Date(iso);
const plan = (now: string, schedule: CallSchedule, utcOffsetHours: number | null, holidays: string[] = []) =>
  nextCallableAt({ now: at(now), schedule, holidays, utcOffsetHours })?.toISOString() ?? null;

describe('nextCallableAt: concrete cases', () => {
  // 2026-03-11 is a Wednesday, 2026-03-13 a Friday.
  it('Moscow lead at night (UTC+3) gets 09:00 local next morning', () => {
    // 23:30 Moscow on Wednesday = 20:30Z
    expect(plan('2026-03-11T20:30:00Z', WEEKDAYS_9_18, 3)).toBe('2026-03-12T06:00:00.000Z');
    // 02:00 Moscow on Thursday = 23:00Z Wednesday: same morning
    expect(plan('2026-03-11T23:00:00Z', WEEKDAYS_9_18, 3)).toBe('2026-03-12T06:00:00.000Z');
  });

  it('inside the window returns now exactly, with sub-minute precision', () => {
    expect(plan('2026-03-11T10:15:42.123Z', WEEKDAYS_9_18, 3)).toBe('2026-03-11T10:15:42.123Z');
  });

  it('window start is inclusive, end exclusive', () => {
    expect(plan('2026-03-11T06:00:00Z', WEEKDAYS_9_18, 3)).toBe('2026-03-11T06:00:00.000Z');
    expect(plan('2026-03-11T14:59:59.999Z', WEEKDAYS_9_18, 3)).toBe('2026-03-11T14:59:59.999Z');
    expect(plan('2026-03-11T15:00:00Z', WEEKDAYS_9_18, 3)).toBe('2026-03-12T06:00:00.000Z');
  });

  it('Friday evening goes to Monday morning', () => {
    // Friday 19:00 Moscow
    expect(plan('2026-03-13T16:00:00Z', WEEKDAYS_9_18, 3)).toBe('2026-03-16T06:00:00.000Z');
    // Saturday noon UTC (null offset = UTC)
    expect(plan('2026-03-14T12:00:00Z', WEEKDAYS_9_18, null)).toBe('2026-03-16T09:00:00.000Z');
  });

  it('skips holidays (local dates), including a long run of them', () => {
    expect(plan('2026-03-13T16:00:00Z', WEEKDAYS_9_18, 3, ['2026-03-16'])).toBe('2026-03-17T06:00:00.000Z');
    // New-year break: Jan 1-8 are holidays; Dec 31 2026 is a Thursday
    const ny = ['2027-01-01', '2027-01-02', '2027-01-03', '2027-01-04', '2027-01-05', '2027-01-06', '2027-01-07', '2027-01-08'];
    expect(plan('2026-12-31T16:00:00Z', WEEKDAYS_9_18, 3, ny)).toBe('2027-01-11T06:00:00.000Z');
    // a holiday today, while inside today's window
    expect(plan('2026-03-11T10:00:00Z', WEEKDAYS_9_18, 3, ['2026-03-11'])).toBe('2026-03-12T06:00:00.000Z');
  });

  it('holiday is judged by the lead local date, not the UTC date', () => {
    // 01:00 Thursday in UTC+3 is still Wednesday in UTC; Thursday is the holiday
    expect(plan('2026-03-11T22:00:00Z', WEEKDAYS_9_18, 3, ['2026-03-12'])).toBe('2026-03-13T06:00:00.000Z');
    expect(plan('2026-03-11T22:00:00Z', WEEKDAYS_9_18, 3, ['2026-03-11'])).toBe('2026-03-12T06:00:00.000Z');
  });

  it('negative offsets crossing the date line', () => {
    // 2026-03-14T03:00Z is Friday 2026-03-13 17:00 in UTC-10 (Hawaii): still inside Friday's window
    expect(plan('2026-03-14T03:00:00Z', WEEKDAYS_9_18, -10)).toBe('2026-03-14T03:00:00.000Z');
    // 05:00Z Saturday = Friday 19:00 in UTC-10: Monday 09:00 local = Monday 19:00Z
    expect(plan('2026-03-14T05:00:00Z', WEEKDAYS_9_18, -10)).toBe('2026-03-16T19:00:00.000Z');
    // UTC-12, 2026-03-16T08:00Z is Sunday 20:00 local: Monday 09:00 local = Monday 21:00Z
    expect(plan('2026-03-16T08:00:00Z', WEEKDAYS_9_18, -12)).toBe('2026-03-16T21:00:00.000Z');
    // UTC+14 (Kiribati), Sunday 2026-03-15T20:00Z is already Monday 10:00 local
    expect(plan('2026-03-15T20:00:00Z', WEEKDAYS_9_18, 14)).toBe('2026-03-15T20:00:00.000Z');
  });

  it('fractional offsets (India +5:30)', () => {
    // 08:00Z Wednesday = 13:30 IST, inside; 13:00Z = 18:30 IST -> Thursday 09:00 IST = 03:30Z
    expect(plan('2026-03-11T08:00:00Z', WEEKDAYS_9_18, 5.5)).toBe('2026-03-11T08:00:00.000Z');
    expect(plan('2026-03-11T13:00:00Z', WEEKDAYS_9_18, 5.5)).toBe('2026-03-12T03:30:00.000Z');
  });

  it('24:00 end covers the last minute of the day', () => {
    const lateSunday: CallSchedule = [[], [], [], [], [], [], ['22:00', '24:00']];
    expect(plan('2026-03-15T23:59:30Z', lateSunday, 0)).toBe('2026-03-15T23:59:30.000Z');
    expect(plan('2026-03-16T00:00:00Z', lateSunday, 0)).toBe('2026-03-22T22:00:00.000Z');
  });

  it('short schedules are treated as normalised (missing days off)', () => {
    expect(plan('2026-03-11T20:00:00Z', [['10:00', '11:00']], 0)).toBe('2026-03-16T10:00:00.000Z');
  });

  it('all-empty schedule is seven days off: no callable moment', () => {
    expect(plan('2026-03-11T03:17:00Z', NONE, 3)).toBeNull();
    expect(plan('2026-03-11T03:17:00Z', [], 3)).toBeNull();
  });

  it('"any time" is 00:00-24:00 every day: now, or the next non-holiday local midnight', () => {
    const ALWAYS = Array.from({ length: 7 }, () => ['00:00', '24:00'] as [string, string]);
    expect(plan('2026-03-11T03:17:00Z', ALWAYS, 3)).toBe('2026-03-11T03:17:00.000Z');
    // holiday today in UTC+3 -> next local midnight (Thursday 00:00 +03 = Wednesday 21:00Z)
    expect(plan('2026-03-11T03:17:00Z', ALWAYS, 3, ['2026-03-11'])).toBe('2026-03-11T21:00:00.000Z');
    expect(plan('2026-03-11T03:17:00Z', ALWAYS, 3, ['2026-03-11', '2026-03-12'])).toBe('2026-03-12T21:00:00.000Z');
  });

  it('null when every configured day of the coming year is a holiday', () => {
    const start = DateTime.fromISO('2026-03-11', { zone: 'utc' });
    const year = Array.from({ length: 400 }, (_, i) => start.plus({ days: i }).toISODate()!);
    expect(plan('2026-03-11T10:00:00Z', WEEKDAYS_9_18, 3, year)).toBeNull();
    expect(plan('2026-03-11T10:00:00Z', NONE, 3, year)).toBeNull();
    // only Mondays configured, all Mondays of the year off except one 52 weeks out
    const mondaysOnly: CallSchedule = [['09:00', '10:00'], [], [], [], [], [], []];
    const mondays = Array.from({ length: 51 }, (_, i) => start.plus({ days: 5 + 7 * i }).toISODate()!);
    expect(plan('2026-03-11T10:00:00Z', mondaysOnly, 0, mondays)).toBe(
      start
        .plus({ days: 5 + 7 * 51 })
        .set({ hour: 9 })
        .toUTC()
        .toISO({ suppressMilliseconds: false }),
    );
  });

  it('does not depend on the host time zone', () => {
    const saved = process.env.TZ;
    try {
      for (const tz of ['Pacific/Kiritimati', 'America/Los_Angeles', 'Asia/Kolkata']) {
        process.env.TZ = tz;
        expect(plan('2026-03-13T16:00:00Z', WEEKDAYS_9_18, 3)).toBe('2026-03-16T06:00:00.000Z');
      }
    } finally {
      process.env.TZ = saved;
    }
  });

  it('rejects an invalid now', () => {
    expect(() => nextCallableAt({ now: new Date(NaN), schedule: NONE, holidays: [], utcOffsetHours: 0 })).toThrow(RangeError);
  });
});

/*
 * Property tests use an independent oracle built on luxon's FixedOffsetZone (no shared code
 * with the implementation beyond the schedule type).
 */
const toMin = (s: string) => (s === '24:00' ? 1440 : Number(s.slice(0, 2)) * 60 + Number(s.slice(3)));

const allDaysOff = (s: CallSchedule) => s.every((d) => d.length === 0);

/** Local window [start, end) in minutes for a luxon local date, or null when the day is off. */
function windowOf(local: DateTime, schedule: CallSchedule, holidays: Set<string>): [number, number] | null {
  if (holidays.has(local.toISODate()!)) return null;
  const w = schedule[local.weekday - 1];
  return w && w.length === 2 ? [toMin(w[0]), toMin(w[1])] : null;
}

function isCallable(t: Date, schedule: CallSchedule, holidays: Set<string>, offset: number): boolean {
  const local = DateTime.fromJSDate(t, { zone: FixedOffsetZone.instance(offset * 60) });
  const w = windowOf(local, schedule, holidays);
  if (!w) return false;
  const minuteOfDay = local.hour * 60 + local.minute + (local.second * 1000 + local.millisecond) / 60000;
  return minuteOfDay >= w[0] && minuteOfDay < w[1];
}

/** All callable window starts (as UTC ms) strictly inside (fromMs, toMs). */
function windowStartsBetween(fromMs: number, toMs: number, schedule: CallSchedule, holidays: Set<string>, offset: number): number[] {
  const zone = FixedOffsetZone.instance(offset * 60);
  const out: number[] = [];
  let day = DateTime.fromMillis(fromMs, { zone }).startOf('day');
  while (day.toMillis() < toMs) {
    const w = windowOf(day, schedule, holidays);
    if (w) {
      const s = day.plus({ minutes: w[0] }).toMillis();
      if (s > fromMs && s < toMs) out.push(s);
    }
    day = day.plus({ days: 1 });
  }
  return out;
}

const BASE = Date.UTC(2026, 0, 1);
const minuteArb = fc.integer({ min: 0, max: 1440 });
const windowArb: fc.Arbitrary<DayWindow> = fc
  .tuple(minuteArb, minuteArb)
  .filter(([a, b]) => a !== b && Math.min(a, b) < 1440)
  .map(([a, b]) => {
    const f = (m: number) => (m === 1440 ? '24:00' : `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
    return [f(Math.min(a, b)), f(Math.max(a, b))] as [string, string];
  });
// Mostly mixed schedules, sometimes all days off, sometimes "any time", sometimes a single day.
const scheduleArb: fc.Arbitrary<CallSchedule> = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.oneof(fc.constant([] as DayWindow), windowArb), { minLength: 7, maxLength: 7 }) },
  { weight: 1, arbitrary: fc.constant([[], [], [], [], [], [], []] as CallSchedule) },
  { weight: 1, arbitrary: fc.constant(Array.from({ length: 7 }, () => ['00:00', '24:00']) as CallSchedule) },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.integer({ min: 0, max: 6 }), windowArb).map(([i, w]) => {
      const s: CallSchedule = [[], [], [], [], [], [], []];
      s[i] = w;
      return s;
    }),
  },
);
// Instants across ~3 years at ms precision; sometimes exactly on a minute boundary.
const nowArb = fc.oneof(
  fc.integer({ min: 0, max: 3 * 366 * 86_400_000 }).map((ms) => BASE + ms),
  fc.integer({ min: 0, max: 3 * 366 * 1440 }).map((m) => BASE + m * 60_000),
);
const offsetArb = fc.oneof({ weight: 9, arbitrary: fc.integer({ min: -12, max: 14 }) }, { weight: 1, arbitrary: fc.constant(null) });
// Holidays near now (-2..+40 days) so they actually interact with the result.
const holidayOffsetsArb = fc.uniqueArray(fc.integer({ min: -2, max: 40 }), { maxLength: 25 });

const caseArb = fc.record({ now: nowArb, schedule: scheduleArb, offset: offsetArb, holidayDays: holidayOffsetsArb }).map((c) => {
  const offset = c.offset ?? 0;
  const localToday = DateTime.fromMillis(c.now, { zone: FixedOffsetZone.instance(offset * 60) }).startOf('day');
  const holidays = c.holidayDays.map((d) => localToday.plus({ days: d }).toISODate()!);
  return { ...c, offsetHours: offset, holidays, holidaySet: new Set(holidays) };
});

describe('nextCallableAt: properties', () => {
  it('result is >= now, callable, minimal, and equals now when now is callable', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const r = nextCallableAt({ now: new Date(c.now), schedule: c.schedule, holidays: c.holidays, utcOffsetHours: c.offset });
        if (allDaysOff(c.schedule)) return void expect(r).toBeNull();
        // at most 25 holidays near now and >= 1 configured weekday: something is always callable
        expect(r).not.toBeNull();
        const rMs = r!.getTime();
        // (a) not before now
        expect(rMs).toBeGreaterThanOrEqual(c.now);
        // (b) + (c) inside its local weekday window and not on a local holiday
        expect(isCallable(r!, c.schedule, c.holidaySet, c.offsetHours)).toBe(true);
        // (e) now callable => result is now
        const nowCallable = isCallable(new Date(c.now), c.schedule, c.holidaySet, c.offsetHours);
        if (nowCallable) expect(rMs).toBe(c.now);
        // (d) minimality: callable time is a union of half-open intervals starting at non-holiday window starts, so it
        // suffices that r is now or a window start and that no callable window start lies in (now, r).
        if (rMs !== c.now) {
          expect(nowCallable).toBe(false);
          const local = DateTime.fromMillis(rMs, { zone: FixedOffsetZone.instance(c.offsetHours * 60) });
          expect(local.second).toBe(0);
          expect(local.millisecond).toBe(0);
          const w = windowOf(local, c.schedule, c.holidaySet)!;
          expect(local.hour * 60 + local.minute).toBe(w[0]);
          expect(windowStartsBetween(c.now, rMs, c.schedule, c.holidaySet, c.offsetHours)).toEqual([]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('minimality by brute force: no minute boundary between now and result is callable', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        fc.pre(!allDaysOff(c.schedule));
        const r = nextCallableAt({ now: new Date(c.now), schedule: c.schedule, holidays: c.holidays, utcOffsetHours: c.offset })!;
        const rMs = r.getTime();
        fc.pre(rMs - c.now <= 2 * 86_400_000); // keep the scan cheap
        if (rMs === c.now) return;
        expect(isCallable(new Date(c.now), c.schedule, c.holidaySet, c.offsetHours)).toBe(false);
        // callability only changes at minute boundaries (windows and offsets are whole minutes)
        for (let m = Math.floor(c.now / 60_000) + 1; m * 60_000 < rMs; m++) {
          if (isCallable(new Date(m * 60_000), c.schedule, c.holidaySet, c.offsetHours)) {
            throw new Error(`callable earlier at ${new Date(m * 60_000).toISOString()}`);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('idempotent: planning again from the result returns the result', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        fc.pre(!allDaysOff(c.schedule));
        const r = nextCallableAt({ now: new Date(c.now), schedule: c.schedule, holidays: c.holidays, utcOffsetHours: c.offset })!;
        const again = nextCallableAt({ now: r, schedule: c.schedule, holidays: c.holidays, utcOffsetHours: c.offset });
        expect(again!.getTime()).toBe(r.getTime());
      }),
      { numRuns: 300 },
    );
  });

  it('all days off: never callable, whatever the holidays and offset', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        expect(nextCallableAt({ now: new Date(c.now), schedule: [], holidays: c.holidays, utcOffsetHours: c.offset })).toBeNull();
      }),
      { numRuns: 100 },
    );
  });

  it('"any time" schedule: now, or the next non-holiday local midnight', () => {
    const always = Array.from({ length: 7 }, () => ['00:00', '24:00']) as CallSchedule;
    fc.assert(
      fc.property(caseArb, (c) => {
        const r = nextCallableAt({ now: new Date(c.now), schedule: always, holidays: c.holidays, utcOffsetHours: c.offset })!;
        const zone = FixedOffsetZone.instance(c.offsetHours * 60);
        const today = DateTime.fromMillis(c.now, { zone });
        if (!c.holidaySet.has(today.toISODate()!)) {
          expect(r.getTime()).toBe(c.now);
        } else {
          let day = today.startOf('day').plus({ days: 1 });
          while (c.holidaySet.has(day.toISODate()!)) day = day.plus({ days: 1 });
          expect(r.getTime()).toBe(day.toMillis());
        }
      }),
      { numRuns: 300 },
    );
  });
});
