import { DateTime } from 'luxon';

/**
 * Order holidays (`callHolidayOverrides`): any parsable date in, stored `yyyy-mm-dd`, returned `dd.mm.yyyy`. A holiday is a calendar
 * date: an input with an offset keeps the date as written ("2026-12-31T23:30:00-05:00" is 31 December), and one without is read in UTC
 * so the server's zone cannot shift it.
 */

// zone: inputs without an offset are UTC; setZone: inputs with one keep it (date as written).
const OPTS = { zone: 'utc', setZone: true } as const;

/** Longest item accepted: the longest layout below ("Thursday, 31 December 2026 10:00:00 GMT"-like) fits. */
export const MAX_HOLIDAY_LENGTH = 40;
/** A year's worth: a list of holidays longer than that is not a list of holidays. */
export const MAX_HOLIDAYS = 366;

type Attempt = (text: string) => DateTime;

const iso: Attempt = (text) => DateTime.fromISO(text, OPTS);
const rfc2822: Attempt = (text) => DateTime.fromRFC2822(text, OPTS);
const http: Attempt = (text) => DateTime.fromHTTP(text, OPTS);
const sql: Attempt = (text) => DateTime.fromSQL(text, OPTS);

/**
 * A luxon layout whose parser is built once, when this module loads: building it is most of the
 * cost of `fromFormat` (about 200 µs for a Russian month layout against 5-35 µs to apply a built
 * one), and the first build per locale also loads its month and weekday names.
 */
function layout(format: string, locale = 'en-US'): Attempt {
  const parser = DateTime.buildFormatParser(format, { locale });
  const opts = { ...OPTS, locale };
  return (text) => DateTime.fromFormatParser(text, parser, opts);
}

// Numeric layouts. Day-first only for dd.mm / dd/mm: a US month-first reading is deliberately
// not tried, since "01/02/2026" would then mean two different days depending on the other digits.
// luxon's `d`/`M` accept one or two digits, so "d.M.yyyy" also covers "dd.mm.yyyy".
const YEAR_FIRST: Record<string, readonly Attempt[]> = {
  '/': [layout('yyyy/M/d')],
  '.': [layout('yyyy.M.d')],
  // ISO 8601 (extended, basic, with time and offset), SQL's "yyyy-mm-dd hh:mm:ss", and "2026-1-5".
  other: [iso, sql, layout('yyyy-M-d')],
};
const DAY_FIRST: Record<string, readonly Attempt[]> = {
  '.': [layout('d.M.yyyy'), layout('d.M.yyyy H:mm'), layout('d.M.yyyy H:mm:ss')],
  '/': [layout('d/M/yyyy'), layout('d/M/yyyy H:mm'), layout('d/M/yyyy H:mm:ss')],
  '-': [layout('d-M-yyyy')],
};

// Layouts with month or weekday names, in English and Russian (the product's languages), in the
// language of the text. MMMM is the "format" month form (Russian genitive: "31 декабря"), LLLL the
// standalone one. RFC 2822 and HTTP dates use English names.
const DAY_THEN_NAME = ['d MMMM yyyy', 'd MMM yyyy', 'd LLLL yyyy', 'd LLL yyyy'];
// With the Russian year mark ("31 декабря 2026 г."), which only these two layouts can match.
const DAY_THEN_NAME_YEAR_MARK = ["d MMMM yyyy 'г.'", "d MMMM yyyy 'г'"];
const MONTH_FIRST = ['MMMM d, yyyy', 'MMM d, yyyy', 'MMMM d yyyy', 'MMM d yyyy'];
const WEEKDAY_FIRST = ['EEEE, d MMMM yyyy', 'EEE, d MMM yyyy', 'EEEE, MMMM d, yyyy', 'EEE, MMM d, yyyy'];
const NAMED = {
  en: {
    dayFirst: [rfc2822, ...DAY_THEN_NAME.map((f) => layout(f))],
    dayFirstYearMark: DAY_THEN_NAME_YEAR_MARK.map((f) => layout(f)),
    // HTTP's asctime form ("Thu Dec 31 10:00:00 2026") has no comma after the weekday.
    monthFirst: [http, ...MONTH_FIRST.map((f) => layout(f))],
    weekdayFirst: [rfc2822, http, ...WEEKDAY_FIRST.map((f) => layout(f))],
  },
  ru: {
    dayFirst: DAY_THEN_NAME.map((f) => layout(f, 'ru')),
    dayFirstYearMark: DAY_THEN_NAME_YEAR_MARK.map((f) => layout(f, 'ru')),
    monthFirst: MONTH_FIRST.map((f) => layout(f, 'ru')),
    weekdayFirst: WEEKDAY_FIRST.map((f) => layout(f, 'ru')),
  },
};
/** Anything else (a sign, a leading space...): the standard parsers only, each a few µs. */
const FALLBACK: readonly Attempt[] = [iso, rfc2822, http, sql];

/**
 * The few layouts a text of this shape can be, so an item costs at most seven attempts of a few
 * µs (366 of them stay within a few ms), instead of trying all forty layouts in turn.
 */
function attemptsFor(text: string): readonly Attempt[] {
  if (/^\d{4}/.test(text)) return YEAR_FIRST[text[4]] ?? YEAR_FIRST.other;
  const dayFirst = /^\d{1,2}([./-])\d/.exec(text);
  if (dayFirst) return DAY_FIRST[dayFirst[1]];
  // The language is that of the names; a trailing Russian "г." (year) does not make it Russian.
  const yearMark = / г\.?$/i.test(text);
  const names = /[\u0400-\u04ff]/.test(yearMark ? text.replace(/ г\.?$/i, '') : text) ? NAMED.ru : NAMED.en;
  if (/^\d{1,2} /.test(text)) return yearMark ? names.dayFirstYearMark : names.dayFirst;
  // A weekday is followed by a comma in every layout that has one ("Thu, 31 Dec 2026").
  if (/^\p{L}+\.?,/u.test(text)) return names.weekdayFirst;
  if (/^\p{L}/u.test(text)) return names.monthFirst;
  return FALLBACK;
}

// Restricting to four-digit years keeps the stored form exactly `yyyy-mm-dd` and catches typos
// such as "31.12.20226" that luxon would otherwise happily accept.
function toStoreForm(dt: DateTime): string | null {
  if (!dt.isValid || dt.year < 1000 || dt.year > 9999) return null;
  return dt.toISODate();
}

/** Calendar date of `input` as `yyyy-mm-dd`, or null when no known layout parses it (or it is too long to be a date). */
export function parseHolidayDate(input: string): string | null {
  if (typeof input !== 'string' || input.length > MAX_HOLIDAY_LENGTH) return null;
  const text = input.trim().replace(/\s+/g, ' ');
  if (text === '') return null;
  for (const attempt of attemptsFor(text)) {
    const date = toStoreForm(attempt(text));
    if (date) return date;
  }
  return null;
}

/** A holiday as stored: `yyyy-mm-dd`. */
const STORE_FORM = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Store form `yyyy-mm-dd` to the response form `dd.mm.yyyy`. Throws on a malformed date. */
export function formatHoliday(isoDate: string): string {
  // The digits are moved, not re-rendered: an order shows up to 366 of these in every response
  // and event; fromFormat + toFormat took about 18 µs a date, this (luxon's check included) 2-5.
  const m = STORE_FORM.exec(isoDate);
  if (!m || !DateTime.utc(Number(m[1]), Number(m[2]), Number(m[3])).isValid) throw new RangeError(`not a yyyy-mm-dd date: ${isoDate}`);
  return `${m[3]}.${m[2]}.${m[1]}`;
}

export type HolidayListValidation = { ok: true; value: string[] } | { ok: false; message: string };

/**
 * Validates a client's holiday list: at most MAX_HOLIDAYS items, every item a parsable date
 * string. Returns the store form, de-duplicated and sorted, so equal inputs store equally.
 * A repeated item is parsed once.
 */
export function parseHolidayList(input: unknown): HolidayListValidation {
  if (!Array.isArray(input)) return { ok: false, message: 'must be an array of dates' };
  if (input.length > MAX_HOLIDAYS) return { ok: false, message: `must have at most ${MAX_HOLIDAYS} dates` };
  const parsed = new Map<string, string | null>();
  for (let i = 0; i < input.length; i++) {
    const item: unknown = input[i];
    if (typeof item === 'string' && !parsed.has(item)) parsed.set(item, parseHolidayDate(item));
    const date = typeof item === 'string' ? parsed.get(item) : null;
    if (!date) return { ok: false, message: `item ${i}: not a recognisable date` };
  }
  return { ok: true, value: [...new Set(parsed.values() as Iterable<string>)].sort() };
}
