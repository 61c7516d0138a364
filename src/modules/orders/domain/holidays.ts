import { DateTime } from 'luxon';

/**
 * Order holidays (`callHolidayOverrides`): accepted in "any parsable date format", stored as
 * `yyyy-mm-dd` (sortable, what a PostgreSQL `date` prints) and returned as `dd.mm.yyyy`.
 *
 * A holiday is a calendar date, not an instant: for inputs carrying a time and offset we keep
 * the date as written ("2026-12-31T23:30:00-05:00" is 31 December), never convert to UTC.
 * Inputs without an offset are read in UTC so the server's zone cannot shift the date.
 */

// zone: inputs without an offset are UTC; setZone: inputs with one keep it (date as written).
const OPTS = { zone: 'utc', setZone: true } as const;

// Numeric layouts. Day-first only for dd.mm / dd/mm: a US month-first reading is deliberately
// not tried, since "01/02/2026" would then mean two different days depending on the other digits.
// luxon's `d`/`M` accept one or two digits, so "d.M.yyyy" also covers "dd.mm.yyyy".
const NUMERIC_FORMATS = [
  'd.M.yyyy',
  'd/M/yyyy',
  'd-M-yyyy',
  'yyyy/M/d',
  'yyyy.M.d',
  'yyyy-M-d',
  'd.M.yyyy H:mm',
  'd.M.yyyy H:mm:ss',
  'd/M/yyyy H:mm',
  'd/M/yyyy H:mm:ss',
];

// Layouts with month or weekday names, tried in English and Russian (the product's languages).
// MMMM is the "format" month form (Russian genitive: "31 декабря"), LLLL the standalone one.
const NAMED_FORMATS = [
  'd MMMM yyyy',
  'd MMM yyyy',
  'd LLLL yyyy',
  'd LLL yyyy',
  'MMMM d, yyyy',
  'MMM d, yyyy',
  'MMMM d yyyy',
  'MMM d yyyy',
  'EEEE, d MMMM yyyy',
  'EEE, d MMM yyyy',
  'EEEE, MMMM d, yyyy',
  'EEE, MMM d, yyyy',
  "d MMMM yyyy 'г.'",
  "d MMMM yyyy 'г'",
];
const NAMED_LOCALES = ['en-US', 'ru'];

// Restricting to four-digit years keeps the stored form exactly `yyyy-mm-dd` and catches typos
// such as "31.12.20226" that luxon would otherwise happily accept.
function toStoreForm(dt: DateTime): string | null {
  if (!dt.isValid || dt.year < 1000 || dt.year > 9999) return null;
  return dt.toISODate();
}

function candidates(input: string): Iterable<DateTime> {
  return (function* () {
    yield DateTime.fromISO(input, OPTS);
    yield DateTime.fromRFC2822(input, OPTS);
    yield DateTime.fromHTTP(input, OPTS);
    yield DateTime.fromSQL(input, OPTS);
    for (const f of NUMERIC_FORMATS) yield DateTime.fromFormat(input, f, OPTS);
    for (const locale of NAMED_LOCALES) {
      for (const f of NAMED_FORMATS) yield DateTime.fromFormat(input, f, { ...OPTS, locale });
    }
  })();
}

/** Calendar date of `input` as `yyyy-mm-dd`, or null when no known layout parses it. */
export function parseHolidayDate(input: string): string | null {
  if (typeof input !== 'string') return null;
  const text = input.trim().replace(/\s+/g, ' ');
  if (text === '') return null;
  for (const dt of candidates(text)) {
    const date = toStoreForm(dt);
    if (date) return date;
  }
  return null;
}

/** Store form `yyyy-mm-dd` to the response form `dd.mm.yyyy`. Throws on a malformed date. */
export function formatHoliday(isoDate: string): string {
  const dt = DateTime.fromFormat(isoDate, 'yyyy-MM-dd', { zone: 'utc' });
  if (!dt.isValid) throw new RangeError(`not a yyyy-mm-dd date: ${isoDate}`);
  return dt.toFormat('dd.MM.yyyy');
}

export type HolidayListValidation = { ok: true; value: string[] } | { ok: false; message: string };

/**
 * Validates a client's holiday list: every item a parsable date string. Returns the store
 * form, de-duplicated and sorted, so equal inputs store equally.
 */
export function parseHolidayList(input: unknown): HolidayListValidation {
  if (!Array.isArray(input)) return { ok: false, message: 'must be an array of dates' };
  const dates = new Set<string>();
  for (let i = 0; i < input.length; i++) {
    const item: unknown = input[i];
    const date = typeof item === 'string' ? parseHolidayDate(item) : null;
    if (!date) return { ok: false, message: `item ${i}: not a recognisable date` };
    dates.add(date);
  }
  return { ok: true, value: [...dates].sort() };
}
