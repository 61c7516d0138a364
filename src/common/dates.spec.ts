import { isoDateTime, shortDateTime, sqlDateTime, unixSeconds } from './dates';

describe('date formats', () => {
  const d = new Date('2026-03-04T05:06:07.890Z');
  it('formats in UTC', () => {
    expect(isoDateTime(d)).toBe('2026-03-04T05:06:07+00:00');
    expect(sqlDateTime(d)).toBe('2026-03-04 05:06:07');
    expect(shortDateTime(d)).toBe('04.03.2026 05:06');
    expect(unixSeconds(d)).toBe(1772600767);
    expect(isoDateTime(null)).toBeNull();
    expect(sqlDateTime(undefined)).toBeNull();
  });
});
