import fc from 'fast-check';
import { DateTime } from 'luxon';
import { formatHoliday, MAX_HOLIDAY_LENGTH, MAX_HOLIDAYS, parseHolidayDate, parseHolidayList } from './holidays';

describe('parseHolidayDate', () => {
  it.each([
    ['2026-12-31', '2026-12-31'],
    ['2026-12-31T10:00:00Z', '2026-12-31'],
    ['2026-12-31T10:00:00.123+03:00', '2026-12-31'],
    // the date as written, not converted to UTC (that would be 1 January)
    ['2026-12-31T23:30:00-05:00', '2026-12-31'],
    ['2027-01-01T00:30:00+03:00', '2027-01-01'],
    ['20261231', '2026-12-31'],
    ['31.12.2026', '2026-12-31'],
    ['01.02.2026', '2026-02-01'],
    ['1.2.2026', '2026-02-01'],
    ['31/12/2026', '2026-12-31'],
    ['01/02/2026', '2026-02-01'],
    ['31-12-2026', '2026-12-31'],
    ['2026/12/31', '2026-12-31'],
    ['2026/1/5', '2026-01-05'],
    ['2026.12.31', '2026-12-31'],
    ['2026-1-5', '2026-01-05'],
    ['31.12.2026 10:00', '2026-12-31'],
    ['2026-12-31 23:30:00', '2026-12-31'],
    ['Thu, 31 Dec 2026 23:30:00 -0500', '2026-12-31'],
    ['31 Dec 2026 10:00:00 +0300', '2026-12-31'],
    ['Thu, 31 Dec 2026 10:00:00 GMT', '2026-12-31'],
    ['31 December 2026', '2026-12-31'],
    ['31 december 2026', '2026-12-31'],
    ['31 Dec 2026', '2026-12-31'],
    ['December 31, 2026', '2026-12-31'],
    ['Dec 31, 2026', '2026-12-31'],
    ['December 31 2026', '2026-12-31'],
    ['Thursday, 31 December 2026', '2026-12-31'],
    ['Thursday, December 31, 2026', '2026-12-31'],
    ['31 декабря 2026', '2026-12-31'],
    ['31 декабря 2026 г.', '2026-12-31'],
    ['8 марта 2026', '2026-03-08'],
    ['  31.12.2026  ', '2026-12-31'],
    ['29.02.2028', '2028-02-29'],
  ])('%p -> %p', (input, expected) => {
    expect(parseHolidayDate(input)).toBe(expected);
  });

  it.each([
    '',
    '   ',
    'tomorrow',
    'hello',
    '31.13.2026',
    '30.02.2026',
    '29.02.2027',
    '2026-02-30',
    '32.01.2026',
    '31.12.20226', // five-digit year: typo, not year 20226
    '12/31/2026', // month-first is not guessed
    '31.12.26',
  ])('rejects %p', (input) => {
    expect(parseHolidayDate(input)).toBeNull();
  });

  it('rejects non-strings without throwing', () => {
    expect(parseHolidayDate(null as unknown as string)).toBeNull();
    expect(parseHolidayDate(20261231 as unknown as string)).toBeNull();
  });

  it('does not depend on the host time zone', () => {
    const saved = process.env.TZ;
    try {
      process.env.TZ = 'Pacific/Kiritimati';
      expect(parseHolidayDate('2026-12-31')).toBe('2026-12-31');
      expect(parseHolidayDate('31.12.2026')).toBe('2026-12-31');
      process.env.TZ = 'Pacific/Pago_Pago';
      expect(parseHolidayDate('2026-12-31')).toBe('2026-12-31');
    } finally {
      process.env.TZ = saved;
    }
  });

  const dateArb = fc
    .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => DateTime.fromJSDate(d, { zone: 'utc' }).startOf('day'));

  it('property: every supported layout of a date parses back to that date', () => {
    const layouts = ['yyyy-MM-dd', 'dd.MM.yyyy', 'd.M.yyyy', 'dd/MM/yyyy', 'yyyy/MM/dd', 'd MMMM yyyy', 'MMMM d, yyyy', "yyyy-MM-dd'T'HH:mm:ssZZ"];
    fc.assert(
      fc.property(dateArb, fc.constantFrom(...layouts), fc.constantFrom('en-US', 'ru'), (dt, layout, locale) => {
        const text = dt.setLocale(locale).toFormat(layout);
        expect(parseHolidayDate(text)).toBe(dt.toISODate());
      }),
      { numRuns: 500 },
    );
  });

  it('property: RFC 2822 with any offset keeps the written calendar date', () => {
    fc.assert(
      fc.property(dateArb, fc.integer({ min: 0, max: 1439 }), fc.integer({ min: -12 * 60, max: 14 * 60 }), (dt, minute, offset) => {
        const local = dt
          .plus({ minutes: minute })
          .setZone(`UTC${offset >= 0 ? '+' : '-'}${Math.floor(Math.abs(offset) / 60)}:${String(Math.abs(offset) % 60).padStart(2, '0')}`, {
            keepLocalTime: true,
          });
        expect(parseHolidayDate(local.toRFC2822()!)).toBe(dt.toISODate());
        expect(parseHolidayDate(local.toISO()!)).toBe(dt.toISODate());
      }),
      { numRuns: 300 },
    );
  });

  it('property: output is always null or a valid yyyy-mm-dd date, never throws', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = parseHolidayDate(s);
        if (r !== null) {
          expect(r).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          expect(DateTime.fromISO(r).isValid).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('formatHoliday', () => {
  it('formats the store form as dd.mm.yyyy', () => {
    expect(formatHoliday('2026-12-31')).toBe('31.12.2026');
    expect(formatHoliday('2026-03-08')).toBe('08.03.2026');
  });

  it.each(['31.12.2026', '2026-02-30', '', 'x'])('throws on %p', (s) => {
    expect(() => formatHoliday(s)).toThrow(RangeError);
  });

  it('property: parse(format(d)) === d', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }), (d) => {
        const iso = d.toISOString().slice(0, 10);
        const shown = formatHoliday(iso);
        expect(shown).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
        expect(parseHolidayDate(shown)).toBe(iso);
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseHolidayList', () => {
  it('parses, de-duplicates and sorts', () => {
    expect(parseHolidayList(['31.12.2026', '2026-01-01', 'December 31, 2026'])).toEqual({
      ok: true,
      value: ['2026-01-01', '2026-12-31'],
    });
    expect(parseHolidayList([])).toEqual({ ok: true, value: [] });
  });

  it('names the first bad item', () => {
    expect(parseHolidayList(['2026-01-01', 'nope'])).toEqual({ ok: false, message: 'item 1: not a recognisable date' });
    expect(parseHolidayList(['2026-01-01', 5])).toEqual({ ok: false, message: 'item 1: not a recognisable date' });
    expect(parseHolidayList('2026-01-01')).toEqual({ ok: false, message: 'must be an array of dates' });
  });
});

describe('holiday parsing bounds', () => {
  const days = (n: number, layout: string, locale = 'en-US') =>
    Array.from({ length: n }, (_, i) =>
      DateTime.fromObject({ year: 2027, month: 1, day: 1 }, { zone: 'utc' }).plus({ days: i }).setLocale(locale).toFormat(layout),
    );

  it(`refuses items longer than ${MAX_HOLIDAY_LENGTH} characters and lists longer than ${MAX_HOLIDAYS}`, () => {
    expect(parseHolidayDate(`31.12.2026${' '.repeat(MAX_HOLIDAY_LENGTH - 10)}`)).toBe('2026-12-31');
    expect(parseHolidayDate(`31.12.2026${' '.repeat(MAX_HOLIDAY_LENGTH - 9)}`)).toBeNull();
    expect(parseHolidayList(days(MAX_HOLIDAYS, 'dd.MM.yyyy')).ok).toBe(true);
    expect(parseHolidayList(days(MAX_HOLIDAYS + 1, 'dd.MM.yyyy'))).toEqual({ ok: false, message: `must have at most ${MAX_HOLIDAYS} dates` });
  });

  it('keeps "31 December 2026 г." (English names, Russian year mark) English', () => {
    expect(parseHolidayDate('31 December 2026 г.')).toBe('2026-12-31');
    expect(parseHolidayDate('31 DECEMBER 2026 Г.')).toBe('2026-12-31');
  });

  // How much CPU time these take is bounded by the reliability suite (reliability/holiday-parsing.rel-spec.ts).
  it.each([
    ['dd.MM.yyyy', 'en-US'],
    ["yyyy-MM-dd'T'HH:mm:ss.SSSZZ", 'en-US'],
    ["d MMMM yyyy 'г.'", 'ru'],
    ['d LLL yyyy', 'ru'],
    ['EEEE, MMMM d, yyyy', 'en-US'],
    ['EEE, MMM d, yyyy', 'en-US'],
  ])('parses a year of distinct %s (%s) dates', (layout, locale) => {
    expect(parseHolidayList(days(MAX_HOLIDAYS, layout, locale)).ok).toBe(true);
  });

  it('keeps one date of a repeated item, and refuses 35,000 copies by their count', () => {
    expect(parseHolidayList(Array(MAX_HOLIDAYS).fill('31 декабря 2026 г.'))).toEqual({ ok: true, value: ['2026-12-31'] });
    expect(parseHolidayList(Array(35_000).fill('31 декабря 2026 г.')).ok).toBe(false);
  });
});
