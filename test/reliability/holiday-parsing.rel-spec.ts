import { DateTime } from 'luxon';
import { MAX_HOLIDAYS, parseHolidayList } from '../../src/modules/orders/domain/holidays';
import { leastCpuMs } from './support/cpu-time';
import { writeFigures } from './support/run-dir';

/**
 * Holiday lists are parsed on the request's event loop: a year of them, in any supported layout,
 * stays under the 50 ms a request may hold the event loop, in main-thread CPU time (the least of
 * three runs, support/cpu-time.ts). What they parse to is checked by
 * src/modules/orders/domain/holidays.spec.ts.
 */
const EVENT_LOOP_BUDGET_MS = 50;
const days = (n: number, layout: string, locale = 'en-US') =>
  Array.from({ length: n }, (_, i) =>
    DateTime.fromObject({ year: 2027, month: 1, day: 1 }, { zone: 'utc' }).plus({ days: i }).setLocale(locale).toFormat(layout),
  );

describe('holiday parsing: CPU time', () => {
  const figures: [string, string][] = [];
  afterAll(async () => {
    await writeFigures('holiday-parsing', { summary: figures });
  });

  it.each([
    ['dd.MM.yyyy', 'en-US'],
    ["yyyy-MM-dd'T'HH:mm:ss.SSSZZ", 'en-US'],
    ["d MMMM yyyy 'г.'", 'ru'],
    ['d LLL yyyy', 'ru'],
    ['EEEE, MMMM d, yyyy', 'en-US'],
    ['EEE, MMM d, yyyy', 'en-US'],
  ])('parses a year of distinct %s (%s) dates within the 50 ms event-loop budget', (layout, locale) => {
    parseHolidayList(days(5, layout, locale)); // warm up the code paths, as any earlier request would
    const list = days(MAX_HOLIDAYS, layout, locale);
    let result: ReturnType<typeof parseHolidayList> | undefined;
    const ms = leastCpuMs(() => (result = parseHolidayList(list)));
    figures.push([`${MAX_HOLIDAYS} x ${layout} (${locale})`, `${ms.toFixed(1)} ms`]);
    expect(result?.ok).toBe(true);
    expect(ms).toBeLessThan(EVENT_LOOP_BUDGET_MS);
  });

  it('parses a repeated item once', () => {
    const copies = Array(MAX_HOLIDAYS).fill('31 декабря 2026 г.');
    const ms = leastCpuMs(() => expect(parseHolidayList(copies)).toEqual({ ok: true, value: ['2026-12-31'] }));
    figures.push([`${MAX_HOLIDAYS} copies of one date`, `${ms.toFixed(1)} ms`]);
    expect(ms).toBeLessThan(10);
  });
});
