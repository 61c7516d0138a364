import fc from 'fast-check';
import { entersQualified, orderDayBounds, qualifiedAtAfter, withinDailyLimit } from './qualified-limit';

describe('qualified leads per day', () => {
  it("bounds the order's local day around now", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        fc.integer({ min: -12, max: 14 }),
        (now, offset) => {
          const { start, end } = orderDayBounds(now, offset);
          expect(start.getTime()).toBeLessThanOrEqual(now.getTime());
          expect(end.getTime()).toBeGreaterThan(now.getTime());
          expect(end.getTime() - start.getTime()).toBe(86_400_000);
          // local midnight
          expect(new Date(start.getTime() + offset * 3_600_000).getUTCHours()).toBe(0);
        },
      ),
    );
    expect(orderDayBounds(new Date('2026-11-22T22:30:00Z'), 3)).toEqual({ start: new Date('2026-11-22T21:00:00Z'), end: new Date('2026-11-23T21:00:00Z') });
  });

  it('counts entering a qualified status, not moving between qualified ones', () => {
    expect(entersQualified('in-progress', 'qualified')).toBe(true);
    expect(entersQualified('rejected', 'qualified')).toBe(true);
    expect(entersQualified('qualified', 'qualified')).toBe(false);
    expect(entersQualified('in-progress', 'closed')).toBe(false);
  });

  it('sets, keeps and clears qualified_at', () => {
    const now = new Date('2026-11-22T10:00:00Z');
    const before = new Date('2026-11-21T10:00:00Z');
    expect(qualifiedAtAfter('in-progress', 'qualified', null, now)).toBe(now);
    expect(qualifiedAtAfter('qualified', 'qualified', before, now)).toBe(before);
    expect(qualifiedAtAfter('qualified', 'rejected', before, now)).toBeNull();
  });

  it('applies the limit', () => {
    expect(withinDailyLimit(0, 1)).toBe(true);
    expect(withinDailyLimit(1, 1)).toBe(false);
    expect(withinDailyLimit(1000, null)).toBe(true);
  });
});
