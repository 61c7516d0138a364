import fc from 'fast-check';
import { MS_PER_DAY, MS_PER_HOUR, planCount } from './count-plan';

/** Creation times in microseconds, like PostgreSQL stores them, counted the way CounterSet.statsQuery does. */
function countWithPlan(timesUs: number[], from: Date | null, to: Date | null): number {
  const plan = planCount(from, to);
  const bucketOf = (us: number, unit: number) => Math.floor(us / 1000 / unit) * unit;
  const within = (ms: number, r: { from: Date | null; to: Date | null }) =>
    (r.from === null || ms >= r.from.getTime()) && (r.to === null || ms < r.to.getTime());
  const inRange = (us: number, a: Date, b: Date, bInclusive: boolean) =>
    us >= a.getTime() * 1000 && (bInclusive ? us <= b.getTime() * 1000 : us < b.getTime() * 1000);
  if (plan.kind === 'all') return timesUs.length;
  if (plan.kind === 'exact') return timesUs.filter((t) => inRange(t, plan.from, plan.to, true)).length;
  let n = 0;
  for (const t of timesUs) {
    const day = bucketOf(t, MS_PER_DAY);
    const hour = bucketOf(t, MS_PER_HOUR);
    if (plan.days && within(day, plan.days))
      n++; // day counter
    else if (within(hour, plan.hours) && !(plan.days && within(hour, plan.days)))
      n++; // hour counter
    else if (plan.below && inRange(t, plan.below.from, plan.below.to, false)) n++;
    else if (plan.above && inRange(t, plan.above.from, plan.above.to, true)) n++;
  }
  return n;
}

const BASE = Date.UTC(2026, 10, 22, 0, 0, 0);
const SPAN_MS = 9 * MS_PER_DAY;
// Creation times near hour boundaries too: microsecond precision around round instants.
const timeUs = fc.oneof(
  fc.integer({ min: 0, max: SPAN_MS * 1000 }).map((us) => BASE * 1000 + us),
  fc.tuple(fc.integer({ min: 0, max: 216 }), fc.integer({ min: -2000, max: 2000 })).map(([h, d]) => (BASE + h * MS_PER_HOUR) * 1000 + d),
);
const bound = fc.option(
  fc.oneof(
    fc.integer({ min: -MS_PER_HOUR, max: SPAN_MS + MS_PER_HOUR }).map((ms) => new Date(BASE + ms)),
    fc.tuple(fc.integer({ min: 0, max: 216 }), fc.integer({ min: -2, max: 2 })).map(([h, d]) => new Date(BASE + h * MS_PER_HOUR + d)),
  ),
  { nil: null },
);

describe('planCount', () => {
  it('counts exactly what a full scan of [from, to] counts', () => {
    fc.assert(
      fc.property(fc.array(timeUs, { maxLength: 200 }), bound, bound, (times, a, b) => {
        const [from, to] = a && b && a > b ? [b, a] : [a, b];
        const expected = times.filter((t) => (!from || t >= from.getTime() * 1000) && (!to || t <= to.getTime() * 1000)).length;
        expect(countWithPlan(times, from, to)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves at most two partial hours to count exactly', () => {
    fc.assert(
      fc.property(bound, bound, (from, to) => {
        const plan = planCount(from, to);
        if (plan.kind === 'exact') expect(plan.to.getTime() - plan.from.getTime()).toBeLessThan(2 * MS_PER_HOUR);
        if (plan.kind === 'buckets') {
          if (plan.below) expect(plan.below.to.getTime() - plan.below.from.getTime()).toBeLessThan(MS_PER_HOUR);
          if (plan.above) expect(plan.above.to.getTime() - plan.above.from.getTime()).toBeLessThan(MS_PER_HOUR);
          if (plan.days) {
            // whole days, inside the whole hours; at most 23 hours at each end outside them
            for (const d of [plan.days.from, plan.days.to]) if (d) expect(d.getTime() % MS_PER_DAY).toBe(0);
            if (plan.days.from && plan.hours.from) {
              expect(plan.days.from.getTime()).toBeGreaterThanOrEqual(plan.hours.from.getTime());
              expect(plan.days.from.getTime() - plan.hours.from.getTime()).toBeLessThan(MS_PER_DAY);
            }
            if (plan.days.to && plan.hours.to) {
              expect(plan.days.to.getTime()).toBeLessThanOrEqual(plan.hours.to.getTime());
              expect(plan.hours.to.getTime() - plan.days.to.getTime()).toBeLessThan(MS_PER_DAY);
            }
          }
        }
      }),
    );
  });

  it('uses counters alone without a range and for whole-hour ranges from the start', () => {
    expect(planCount(null, null)).toEqual({ kind: 'all' });
    const plan = planCount(new Date('2026-11-22T10:00:00Z'), null);
    expect(plan).toEqual({
      kind: 'buckets',
      hours: { from: new Date('2026-11-22T10:00:00Z'), to: null },
      days: { from: new Date('2026-11-23T00:00:00Z'), to: null },
      below: null,
      above: null,
    });
  });
});
