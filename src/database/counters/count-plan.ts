/**
 * How the exact `total` of a list is assembled from counters (see counter-set.ts).
 *
 * Counters hold the number of rows per key (e.g. order and status) for each UTC hour and each UTC
 * day of the rows' creation time, and for all time. For a createdAt range [from, to] (both
 * inclusive, either open):
 * - the whole days inside the range come from day counters,
 * - the whole hours inside the range but outside those days (at most 23 at each end) from hour
 *   counters,
 * - the rows of the at most two boundary hours that the range cuts are counted exactly from the
 *   counted table (an indexed range of under two hours).
 * So the work is bounded by the number of days in the range, not by the number of rows. Without
 * a range the all-time counters answer alone.
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
