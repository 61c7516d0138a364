import fc from 'fast-check';
import { CallSchedule, DEFAULT_CALL_SCHEDULE, hasNoCallableDay, normaliseSchedule, timeToMinutes, validateCallSchedule } from './call-schedule';

const hhmm = (min: number) => `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;

describe('timeToMinutes', () => {
  it.each([
    ['00:00', 0],
    ['09:30', 570],
    ['23:59', 1439],
    ['24:00', 1440],
  ])('%s -> %d', (s, m) => expect(timeToMinutes(s)).toBe(m));

  it.each(['24:01', '9:00', '09:60', '25:00', '0900', ' 09:00', '09:00:00', '', 'ab:cd'])('rejects %p', (s) => expect(timeToMinutes(s)).toBeNull());
});

describe('validateCallSchedule', () => {
  it('pads a short schedule to 7 days', () => {
    expect(validateCallSchedule([['09:00', '18:00'], []])).toEqual({
      ok: true,
      value: [['09:00', '18:00'], [], [], [], [], [], []],
    });
  });

  it('accepts an empty array as seven days off (an order that never calls)', () => {
    const r = validateCallSchedule([]);
    expect(r).toEqual({ ok: true, value: [[], [], [], [], [], [], []] });
    expect(r.ok && hasNoCallableDay(r.value)).toBe(true);
  });

  it('accepts 24:00 as an end and a full 7-day schedule', () => {
    const week = Array.from({ length: 7 }, () => ['00:00', '24:00']);
    expect(validateCallSchedule(week)).toEqual({ ok: true, value: week });
  });

  it.each<[unknown, string]>([
    [null, 'must be an array'],
    ['09:00-18:00', 'must be an array'],
    [Array(8).fill([]), 'must have at most 7 items'],
    [[[], '09:00'], 'item 1 (Tuesday): must be an array'],
    [[['09:00']], 'item 0 (Monday): must be [] or [start, end]'],
    [[['09:00', '10:00', '11:00']], 'item 0 (Monday): must be [] or [start, end]'],
    [[[], [], ['18:00', '09:00']], 'item 2 (Wednesday): start must be before end'],
    [[['09:00', '09:00']], 'item 0 (Monday): start must be before end'],
    [[['24:00', '24:00']], 'item 0 (Monday): start must be a time HH:MM (00:00-23:59)'],
    [[[900, '18:00']], 'item 0 (Monday): start must be a time HH:MM (00:00-23:59)'],
    [[['9:00', '18:00']], 'item 0 (Monday): start must be a time HH:MM (00:00-23:59)'],
    [[['09:00', '24:30']], 'item 0 (Monday): end must be a time HH:MM (00:00-24:00)'],
    [[['09:00', null]], 'item 0 (Monday): end must be a time HH:MM (00:00-24:00)'],
  ])('rejects %j with %p', (input, message) => {
    expect(validateCallSchedule(input)).toEqual({ ok: false, message });
  });

  it('property: valid windows are accepted and normalised to 7 items preserving input', () => {
    const window = fc
      .tuple(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 1, max: 1440 }))
      .filter(([s, e]) => s < e)
      .map(([s, e]) => [hhmm(s), hhmm(e)] as [string, string]);
    const day = fc.oneof(fc.constant([] as []), window);
    fc.assert(
      fc.property(fc.array(day, { maxLength: 7 }), (input: CallSchedule) => {
        const r = validateCallSchedule(input);
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        expect(r.value).toHaveLength(7);
        input.forEach((d, i) => expect(r.value[i]).toEqual(d));
        r.value.slice(input.length).forEach((d) => expect(d).toEqual([]));
        // validating the normalised output is a fixed point
        expect(validateCallSchedule(r.value)).toEqual(r);
      }),
      { numRuns: 500 },
    );
  });

  it('property: start >= end is always rejected with the item position', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 1439 }), (pos, a, b) => {
        const [s, e] = a >= b ? [a, b] : [b, a];
        const input: CallSchedule = Array.from({ length: pos + 1 }, () => []);
        input[pos] = [hhmm(s), hhmm(e)];
        const r = validateCallSchedule(input);
        expect(r).toEqual({ ok: false, message: expect.stringMatching(new RegExp(`^item ${pos} .*start must be before end$`)) });
      }),
      { numRuns: 300 },
    );
  });

  it('property: never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = validateCallSchedule(v);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });
});

describe('normaliseSchedule', () => {
  it('pads, truncates and copies', () => {
    const src: CallSchedule = [['09:00', '18:00']];
    const out = normaliseSchedule(src);
    expect(out).toEqual([['09:00', '18:00'], [], [], [], [], [], []]);
    expect(out[0]).not.toBe(src[0]);
    expect(normaliseSchedule(Array(9).fill(['01:00', '02:00']))).toHaveLength(7);
    expect(normaliseSchedule(null)).toEqual([[], [], [], [], [], [], []]);
    expect(normaliseSchedule(undefined)).toHaveLength(7);
  });
});

describe('hasNoCallableDay', () => {
  it('is true only when no day has a window', () => {
    expect(hasNoCallableDay([])).toBe(true);
    expect(hasNoCallableDay([[], [], [], [], [], [], []])).toBe(true);
    expect(hasNoCallableDay(null)).toBe(true);
    expect(hasNoCallableDay([[], [], [], [], [], [], ['10:00', '11:00']])).toBe(false);
  });
});

describe('DEFAULT_CALL_SCHEDULE', () => {
  it('is a valid schedule with a daytime window every day', () => {
    expect(validateCallSchedule(DEFAULT_CALL_SCHEDULE)).toEqual({ ok: true, value: DEFAULT_CALL_SCHEDULE });
    expect(DEFAULT_CALL_SCHEDULE).toHaveLength(7);
    for (const day of DEFAULT_CALL_SCHEDULE) expect(day).toEqual(['09:00', '21:00']);
  });
});
