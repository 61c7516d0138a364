/** A fixed "now" and ranges around it, so snapshots do not change from one run to the next. */
export const NOW = new Date('2026-11-22T10:30:00.000Z');

/** A time range cutting an hour at each end and spanning whole days: day, hour and exact counts all take part. */
export const DAYS_RANGE = { from: new Date('2026-11-19T10:30:00.000Z'), to: new Date('2026-11-22T10:30:00.000Z') };
/** A range of a few hours inside one day, cutting an hour at each end: hour counts and exact counts. */
export const HOURS_RANGE = { from: new Date('2026-11-22T08:30:00.000Z'), to: new Date('2026-11-22T12:30:00.000Z') };
/** A range holding no whole hour: counted exactly from the table. */
export const SHORT_RANGE = { from: new Date('2026-11-22T10:15:00.000Z'), to: new Date('2026-11-22T11:45:00.000Z') };
/** A range from a whole hour on: no boundary hour to count exactly. */
export const FROM_WHOLE_HOUR = new Date('2026-11-22T10:00:00.000Z');

/** Id bounds of a page as the counters give them. */
export const IDS = { minId: 1000, maxId: 900000 };
export const LIMIT = 50;

/** `count` consecutive ids from `first`. */
export const seq = (count: number, first = 1): number[] => Array.from({ length: count }, (_, i) => first + i);

/** Inputs as a reader states them: `name: value` pairs, dates in ISO 8601, long id lists shortened. */
export function describeInputs(inputs: Record<string, unknown>): string {
  return Object.entries(inputs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${describeValue(v)}`)
    .join(', ');
}

function describeValue(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.length > 8 ? `[${v.slice(0, 3).join(', ')}, ... ${String(v.at(-1))}] (${v.length})` : `[${v.map(describeValue).join(', ')}]`;
  if (v !== null && typeof v === 'object') return Object.keys(v).length ? `{ ${describeInputs(v as Record<string, unknown>)} }` : '{}';
  return JSON.stringify(v);
}
