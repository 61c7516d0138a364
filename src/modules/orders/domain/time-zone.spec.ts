import { FixedOffsetZone, IANAZone } from 'luxon';
import { countryTimeZone, currentUtcOffset, orderZone, parseTimeZone, planningZone, resolveLeadTimeZone, wholeHourOffset } from './time-zone';

const WINTER = new Date('2026-01-15T12:00:00Z');
const SUMMER = new Date('2026-07-15T12:00:00Z');

describe('time zones', () => {
  it('accepts IANA names in their usual spelling, refuses the rest', () => {
    expect(parseTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(parseTimeZone('asia/kolkata')).toBe('Asia/Kolkata');
    expect(parseTimeZone('Asia/Calcutta')).toBe('Asia/Calcutta'); // a link, kept as chosen
    expect(parseTimeZone('UTC')).toBe('UTC');
    for (const bad of ['Mars/Base', '+05:30', '', 'x'.repeat(65), 5, null, 'Europe/Berlin; drop']) expect(parseTimeZone(bad)).toBeNull();
  });

  it("gives a phone country's zone only when the country has a single one", () => {
    expect(countryTimeZone('IN')).toBe('Asia/Kolkata');
    expect(countryTimeZone('NP')).toBe('Asia/Kathmandu');
    expect(countryTimeZone('BY')).toBe('Europe/Minsk');
    for (const several of ['RU', 'US', 'CA', 'AU', 'DE']) expect(countryTimeZone(several)).toBeNull();
    expect(countryTimeZone(null)).toBeNull();
    expect(countryTimeZone('XX')).toBeNull();
  });

  it('truncates fractional offsets toward zero and follows DST', () => {
    expect(wholeHourOffset(IANAZone.create('Asia/Kolkata'), WINTER)).toBe(5);
    expect(wholeHourOffset(IANAZone.create('Asia/Kathmandu'), WINTER)).toBe(5);
    expect(wholeHourOffset(IANAZone.create('America/St_Johns'), WINTER)).toBe(-3);
    expect(wholeHourOffset(IANAZone.create('America/St_Johns'), SUMMER)).toBe(-2);
    expect(wholeHourOffset(IANAZone.create('Pacific/Marquesas'), WINTER)).toBe(-9);
    expect(wholeHourOffset(IANAZone.create('Europe/Berlin'), SUMMER)).toBe(2);
    expect(currentUtcOffset({ timeZone: 'Europe/London', utcOffset: 7 }, SUMMER)).toBe(1);
    expect(currentUtcOffset({ timeZone: null, utcOffset: 7 }, SUMMER)).toBe(7);
  });

  it('follows a DST change from one minute to the next (offsets are reused within a minute only)', () => {
    const berlin = IANAZone.create('Europe/Berlin');
    // 2026-03-29 01:00 UTC: Berlin moves from +1 to +2.
    expect(wholeHourOffset(berlin, new Date('2026-03-29T00:59:59Z'))).toBe(1);
    expect(wholeHourOffset(berlin, new Date('2026-03-29T00:59:00Z'))).toBe(1);
    expect(wholeHourOffset(berlin, new Date('2026-03-29T01:00:00Z'))).toBe(2);
    expect(wholeHourOffset(berlin, new Date('2026-03-29T00:59:30Z'))).toBe(1);
  });

  it('resolves a new lead: timeZone, utcOffset, phone country, order zone, order offset', () => {
    const order = { defaultTimeZone: 'Europe/London', defaultUtcOffset: 3 };
    const resolve = (p: Partial<Parameters<typeof resolveLeadTimeZone>[0]>) => resolveLeadTimeZone({ phoneCountry: 'RU', order, now: WINTER, ...p });
    expect(resolve({ timeZone: 'Asia/Kathmandu', utcOffset: 2 })).toEqual({ ok: true, value: { timeZone: 'Asia/Kathmandu', utcOffset: 5 } });
    expect(resolve({ utcOffset: -4, phoneCountry: 'IN' })).toEqual({ ok: true, value: { timeZone: null, utcOffset: -4 } });
    expect(resolve({ phoneCountry: 'IN' })).toEqual({ ok: true, value: { timeZone: 'Asia/Kolkata', utcOffset: 5 } });
    expect(resolve({})).toEqual({ ok: true, value: { timeZone: 'Europe/London', utcOffset: 0 } });
    expect(resolve({ order: { defaultTimeZone: null, defaultUtcOffset: 3 } })).toEqual({ ok: true, value: { timeZone: null, utcOffset: 3 } });
    expect(resolve({ timeZone: 'Nowhere/City' })).toEqual({ ok: false, error: { field: 'timeZone', message: expect.stringContaining('IANA') } });
  });

  it("plans in the lead's zone, or the order's when it ignores lead zones", () => {
    const lead = { timeZone: 'Asia/Kolkata', utcOffset: 5 };
    expect(planningZone({ defaultTimeZone: null, defaultUtcOffset: 3, ignoreLeadTimezone: false }, lead).name).toBe('Asia/Kolkata');
    expect(planningZone({ defaultTimeZone: null, defaultUtcOffset: 3, ignoreLeadTimezone: true }, lead)).toEqual(FixedOffsetZone.instance(180));
    expect(orderZone({ defaultTimeZone: 'Europe/Berlin', defaultUtcOffset: 3 }).name).toBe('Europe/Berlin');
    expect(planningZone({ defaultTimeZone: null, defaultUtcOffset: 0, ignoreLeadTimezone: false }, { timeZone: null, utcOffset: -3 }).offset(0)).toBe(-180);
  });
});
