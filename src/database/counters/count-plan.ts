/**
 * How the exact `total` of a time range [from, to] (inclusive, either open) is assembled: whole days
 * from day counters, other whole hours from hour counters, the at most two hours the range cuts
 * counted exactly from the table. The work follows the days in the range, not the rows.
 */

export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 24 * MS_PER_HOUR;

/** A half-open range [from, to) of bucket starts; null = unbounded on that side. */
export interface BucketRange {
  from: Date | null;
  to: Date | null;
}

export type CountPlan =
  | { kind: 'all' }
  /** No whole hour inside the range: count [from, to] exactly. */
  | { kind: 'exact'; from: Date; to: Date }
  | {
      kind: 'buckets';
      /** Whole hours H with hours.from <= H < hours.to are counted (from day counters where `days` covers them). */
      hours: BucketRange;
      /** Whole days inside `hours`, summed from day counters; null when none. */
      days: BucketRange | null;
      /** Rows counted exactly: [from, hours.from) and [hours.to, to]. */
      below: { from: Date; to: Date } | null;
      above: { from: Date; to: Date } | null;
    };

const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;
const ceilTo = (ms: number, unit: number) => Math.ceil(ms / unit) * unit;

export function planCount(from: Date | null, to: Date | null): CountPlan {
  if (!from && !to) return { kind: 'all' };
  // A whole hour [H, H+1h) lies inside [from, to] iff H >= from and H + 1h <= to: any row
  // created before H + 1h is then <= to. (Rows carry microseconds, bounds milliseconds: a row
  // at 10:59:59.9995 with to = 10:59:59.999 is outside, so that hour is not whole.)
  const fullFrom = from ? ceilTo(from.getTime(), MS_PER_HOUR) : null;
  const fullTo = to ? floorTo(to.getTime(), MS_PER_HOUR) : null;
  if (from && to && fullFrom! >= fullTo!) return { kind: 'exact', from, to };
  const dayFrom = fullFrom === null ? null : ceilTo(fullFrom, MS_PER_DAY);
  const dayTo = fullTo === null ? null : floorTo(fullTo, MS_PER_DAY);
  const hasDays = dayFrom === null || dayTo === null || dayFrom < dayTo;
  const date = (ms: number | null) => (ms === null ? null : new Date(ms));
  return {
    kind: 'buckets',
    hours: { from: date(fullFrom), to: date(fullTo) },
    days: hasDays ? { from: date(dayFrom), to: date(dayTo) } : null,
    below: from && fullFrom! > from.getTime() ? { from, to: new Date(fullFrom!) } : null,
    above: to ? { from: new Date(fullTo!), to } : null,
  };
}

/** Start of the UTC hour containing `d`. */
export const hourOf = (d: Date) => new Date(floorTo(d.getTime(), MS_PER_HOUR));
