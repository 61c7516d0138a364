import { checkExpiry, normalisePhones } from './dnc-entry';

describe('normalisePhones', () => {
  it("normalises like a lead's phone and keeps each number once", () => {
    expect(normalisePhones(['+7 (916) 123-45-67', '79161234567', '+12025550123'])).toEqual({ ok: true, value: ['+79161234567', '+12025550123'] });
  });

  it('names every invalid number by its index', () => {
    const r = normalisePhones(['+79161234567', 'abc', 42]);
    expect(!r.ok && r.errors.map((e) => e.field)).toEqual(['phones[1]', 'phones[2]']);
  });
});

describe('checkExpiry', () => {
  const now = new Date('2026-03-10T00:00:00Z');
  it('absent: never expires; a future date-time: that moment', () => {
    expect(checkExpiry(undefined, now)).toEqual({ ok: true, value: null });
    expect(checkExpiry('2026-03-10T00:00:01Z', now)).toEqual({ ok: true, value: new Date('2026-03-10T00:00:01Z') });
  });

  it('refuses now, the past and what is not a date, naming expiresAt', () => {
    for (const at of ['2026-03-10T00:00:00Z', '2020-01-01T00:00:00Z', 'soon']) {
      expect(checkExpiry(at, now)).toEqual({ ok: false, errors: [{ field: 'expiresAt', message: 'must be a date-time in the future' }] });
    }
  });
});
