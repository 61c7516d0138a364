import fc from 'fast-check';
import { FixedOffsetZone, IANAZone, Zone } from 'luxon';
import type { CallSchedule, DayWindow } from './call-schedule';
import { nextCallableAt } from './callable-time';
import { orderDayBounds } from '../../leads/domain/qualified-limit';

/**
 * Property tests of call planning in real zone rules. The oracle reads local time as instant + the zone's offset there and walks
 * forward from `now` between the instants where the answer can change (window bounds, local midnights, offset changes), finding
 * the earliest allowed moment by a different route than nextCallableAt's per-day intervals.
 */

const MIN = 60_000;
const DAY = 86_400_000;

const IANA_ZONES = [
  'America/New_York',
  'Europe/London',
  'Europe/Berlin',
  'Australia/Sydney',
  'America/St_Johns',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/Santiago',
  'America/Havana',
  'Asia/Beirut',
  'Asia/Tehran',
  'Australia/Adelaide',
  'Australia/Eucla',
  'Pacific/Marquesas',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'America/Los_Angeles',
  'Africa/Casablanca',
  'Pacific/Auckland',
  'Europe/Moscow',
  'America/Sao_Paulo',
  'Asia/Tokyo',
  'Europe/Dublin',
  'UTC',
];
const ZONES: Zone[] = [
  ...IANA_ZONES.map((name) => IANAZone.create(name)),
  FixedOffsetZone.instance(330),
  FixedOffsetZone.instance(-210),
  FixedOffsetZone.instance(765),
  FixedOffsetZone.instance(-720),
];

/**
 * A zone's offsets as a table of changes, read once from luxon (day probes, then a binary search
 * to the millisecond) over the tested years and their margins: the oracle's source of truth,
 * and cheap to query a million times.
 */
interface OffsetTable {
  /** Instants at which the offset changes, ascending. */
  at: number[];
  /** offsets[i] is in force before at[i]; offsets[at.length] after the last change (minutes). */
  offsets: number[];
}
const TABLE_FROM = Date.UTC(2024, 11, 1);
const TABLE_TO = Date.UTC(2028, 2, 1);

function offsetTable(zone: Zone): OffsetTable {
  const table: OffsetTable = { at: [], offsets: [zone.offset(TABLE_FROM)] };
  for (let t = TABLE_FROM; t < TABLE_TO; t += DAY) {
    if (zone.offset(t) === zone.offset(t + DAY)) continue;
    let lo = t;
    let hi = t + DAY;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (zone.offset(mid) === zone.offset(lo)) lo = mid;
      else hi = mid;
    }
    table.at.push(hi);
    table.offsets.push(zone.offset(hi));
  }
  return table;
}

/** The offset (minutes) in force at `ms`, from the table. */
function tableOffset(table: OffsetTable, ms: number): number {
  if (ms < TABLE_FROM || ms > TABLE_TO) throw new RangeError('outside the offset table');
  let lo = 0;
  let hi = table.at.length; // first change after ms
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (table.at[mid] <= ms) lo = mid + 1;
    else hi = mid;
  }
  return table.offsets[lo];
}
const TABLES = ZONES.map(offsetTable);
const TRANSITIONS = TABLES.map((t) => t.at.filter((at) => at >= Date.UTC(2025, 0, 1) && at < Date.UTC(2028, 0, 1)));

const hhmm = (minutes: number) =>
  minutes === 1440 ? '24:00' : `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Local wall clock of an instant: date, ISO weekday index, ms into the day. */
function local(table: OffsetTable, ms: number): { date: string; weekday: number; msOfDay: number } {
  const wall = new Date(ms + tableOffset(table, ms) * MIN);
  const msOfDay = ((wall.getTime() % DAY) + DAY) % DAY;
  return { date: wall.toISOString().slice(0, 10), weekday: (wall.getUTCDay() + 6) % 7, msOfDay };
}

const windowCache = new WeakMap<CallSchedule, ([number, number] | null)[]>();
function windowOf(schedule: CallSchedule, weekday: number): [number, number] | null {
  let week = windowCache.get(schedule);
  if (!week) {
    week = schedule.map((w) => {
      if (w.length !== 2) return null;
      const [h1, m1] = w[0].split(':').map(Number);
      const [h2, m2] = w[1].split(':').map(Number);
      return [(h1 * 60 + m1) * MIN, (h2 * 60 + m2) * MIN];
    });
    windowCache.set(schedule, week);
  }
  return week[weekday];
}

function allowed(table: OffsetTable, schedule: CallSchedule, holidays: Set<string>, ms: number): boolean {
  const l = local(table, ms);
  if (holidays.has(l.date)) return false;
  const w = windowOf(schedule, l.weekday);
  return w !== null && l.msOfDay >= w[0] && l.msOfDay < w[1];
}

/** The oracle: the first allowed instant >= now, walking between the instants where `allowed` can change. */
function earliestAllowed(table: OffsetTable, schedule: CallSchedule, holidays: Set<string>, now: number, limitDays: number): number | null {
  let x = now;
  const limit = now + limitDays * DAY;
  while (x < limit) {
    if (allowed(table, schedule, holidays, x)) return x;
    const l = local(table, x);
    const w = windowOf(schedule, l.weekday);
    const bounds = [...(w ?? []), DAY].filter((b) => b > l.msOfDay);
    const y = x + (Math.min(...bounds) - l.msOfDay);
    // The wall clock jumps at the first offset change after x, when it comes before the next bound.
    const change = table.at.find((at) => at > x);
    x = change !== undefined && change < y ? change : y;
  }
  return null;
}

const dayWindow: fc.Arbitrary<DayWindow> = fc.oneof(
  { weight: 1, arbitrary: fc.constant([] as DayWindow) },
  { weight: 1, arbitrary: fc.constant(['09:00', '18:00'] as DayWindow) },
  { weight: 1, arbitrary: fc.constant(['00:00', '24:00'] as DayWindow) },
  // Around the usual change times (00:00-04:00) and anywhere.
  {
    weight: 2,
    arbitrary: fc
      .integer({ min: 0, max: 1439 })
      .chain((start) =>
        fc.integer({ min: start + 1, max: Math.min(1440, start + (start < 240 ? 120 : 900)) }).map((end): DayWindow => [hhmm(start), hhmm(end)]),
      ),
  },
);

const caseArb = fc
  .record({
    zoneIndex: fc.integer({ min: 0, max: ZONES.length - 1 }),
    nearTransition: fc.boolean(),
    pick: fc.nat(),
    shiftMinutes: fc.integer({ min: -36 * 60, max: 36 * 60 }),
    seconds: fc.integer({ min: 0, max: 59_999 }),
    randomNow: fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2027, 11, 31) }),
    schedule: fc.array(dayWindow, { minLength: 7, maxLength: 7 }),
    holidayDays: fc.uniqueArray(fc.integer({ min: -1, max: 9 }), { maxLength: 4 }),
  })
  .map((c) => {
    const zone = ZONES[c.zoneIndex];
    const changes = TRANSITIONS[c.zoneIndex];
    const now = c.nearTransition && changes.length ? changes[c.pick % changes.length] + c.shiftMinutes * MIN + (c.seconds % 2 ? c.seconds : 0) : c.randomNow;
    const today = local(TABLES[c.zoneIndex], now).date;
    const holidays = c.holidayDays.map((d) => new Date(Date.parse(today) + d * DAY).toISOString().slice(0, 10));
    return { zone, table: TABLES[c.zoneIndex], now, schedule: c.schedule, holidays };
  });

describe('call planning in real zone rules (property)', () => {
  it('covers at least 20 zones, DST changes and fractional offsets', () => {
    expect(ZONES.length).toBeGreaterThanOrEqual(20);
    expect(TRANSITIONS.filter((t) => t.length > 0).length).toBeGreaterThanOrEqual(12);
    expect(ZONES.filter((z) => z.offset(Date.UTC(2026, 0, 1)) % 60 !== 0).length).toBeGreaterThanOrEqual(8);
    expect(TABLES[IANA_ZONES.indexOf('Australia/Lord_Howe')].offsets).toContain(630); // its half-hour DST
  });

  it('100,000 cases: the planned moment is inside the local window, never on a holiday, and the earliest allowed one', () => {
    let planned = 0;
    fc.assert(
      // Plain booleans, not expect(): 100,000 runs stay within a few seconds.
      fc.property(caseArb, ({ zone, table, now, schedule, holidays }) => {
        const holidaySet = new Set(holidays);
        const got = nextCallableAt({ now: new Date(now), schedule, holidays, zone });
        // 7 days + up to 11 holiday days cover every weekly pattern with a window.
        const expected = earliestAllowed(table, schedule, holidaySet, now, 20);
        if (got === null) return expected === null;
        planned++;
        const at = got.getTime();
        return at >= now && allowed(table, schedule, holidaySet, at) && !holidaySet.has(local(table, at).date) && at === expected;
      }),
      { numRuns: 100_000 },
    );
    expect(planned).toBeGreaterThan(50_000);
  });

  it('plans to the minute in fractional and DST zones', () => {
    const weekdays: CallSchedule = Array.from({ length: 7 }, (): DayWindow => ['09:00', '18:00']);
    const plan = (zone: string, now: string) =>
      nextCallableAt({ now: new Date(now), schedule: weekdays, holidays: [], zone: IANAZone.create(zone) })!.toISOString();
    expect(plan('Asia/Kolkata', '2026-03-10T00:00:00Z')).toBe('2026-03-10T03:30:00.000Z'); // 09:00 +5:30
    expect(plan('Asia/Kathmandu', '2026-03-10T00:00:00Z')).toBe('2026-03-10T03:15:00.000Z'); // 09:00 +5:45
    expect(plan('America/St_Johns', '2026-01-10T00:00:00Z')).toBe('2026-01-10T12:30:00.000Z'); // 09:00 -3:30
    expect(plan('America/St_Johns', '2026-07-10T00:00:00Z')).toBe('2026-07-10T11:30:00.000Z'); // 09:00 -2:30 (DST)
    expect(plan('Pacific/Chatham', '2026-07-09T12:00:00Z')).toBe('2026-07-09T20:15:00.000Z'); // 09:00 +12:45
    // New York on the days DST starts (8 March 2026) and ends (1 November 2026): 09:00 local each time.
    expect(plan('America/New_York', '2026-03-08T06:00:00Z')).toBe('2026-03-08T13:00:00.000Z');
    expect(plan('America/New_York', '2026-03-07T23:30:00Z')).toBe('2026-03-08T13:00:00.000Z');
    expect(plan('America/New_York', '2026-11-01T04:00:00Z')).toBe('2026-11-01T14:00:00.000Z');
    // A window starting inside the skipped hour opens when the clock jumps (03:00 EDT = 07:00Z).
    const night: CallSchedule = Array.from({ length: 7 }, (): DayWindow => ['02:30', '04:00']);
    expect(
      nextCallableAt({ now: new Date('2026-03-08T05:00:00Z'), schedule: night, holidays: [], zone: IANAZone.create('America/New_York') })!.toISOString(),
    ).toBe('2026-03-08T07:00:00.000Z');
  });

  it("bounds the order's day from local midnight to local midnight, 23 or 25 hours on DST days", () => {
    const ny = IANAZone.create('America/New_York');
    expect(orderDayBounds(new Date('2026-03-08T15:00:00Z'), ny)).toEqual({ start: new Date('2026-03-08T05:00:00Z'), end: new Date('2026-03-09T04:00:00Z') });
    expect(orderDayBounds(new Date('2026-11-01T15:00:00Z'), ny)).toEqual({ start: new Date('2026-11-01T04:00:00Z'), end: new Date('2026-11-02T05:00:00Z') });
    expect(orderDayBounds(new Date('2026-03-10T20:00:00Z'), IANAZone.create('Asia/Kolkata'))).toEqual({
      start: new Date('2026-03-10T18:30:00Z'),
      end: new Date('2026-03-11T18:30:00Z'),
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: ZONES.length - 1 }), fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2027, 11, 31) }), (i, now) => {
        const table = TABLES[i];
        const { start, end } = orderDayBounds(new Date(now), ZONES[i]);
        const today = local(table, now).date;
        expect(start.getTime()).toBeLessThanOrEqual(now);
        expect(end.getTime()).toBeGreaterThan(now);
        expect(local(table, start.getTime()).date).toBe(today);
        expect(local(table, start.getTime() - 1).date).not.toBe(today);
        expect(local(table, end.getTime()).date).not.toBe(today);
        expect(local(table, end.getTime() - 1).date).toBe(today);
      }),
      { numRuns: 5_000 },
    );
  });
});
