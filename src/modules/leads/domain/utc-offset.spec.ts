import { countryUtcOffset, deriveUtcOffset } from './utc-offset';

describe('utcOffset derivation', () => {
  const winter = new Date('2026-01-15T12:00:00Z');
  const summer = new Date('2026-07-15T12:00:00Z');

  it('uses the country offset when all its zones agree (with DST as of the moment)', () => {
    expect(countryUtcOffset('BY', winter)).toBe(3);
    expect(countryUtcOffset('DE', winter)).toBe(1);
    expect(countryUtcOffset('DE', summer)).toBe(2);
    expect(countryUtcOffset('GB', winter)).toBe(0);
    expect(countryUtcOffset('UZ', winter)).toBe(5);
  });

  it('gives null for several offsets, fractional offsets and unknown countries', () => {
    expect(countryUtcOffset('RU', winter)).toBeNull();
    expect(countryUtcOffset('US', winter)).toBeNull();
    expect(countryUtcOffset('IN', winter)).toBeNull(); // +5:30
    expect(countryUtcOffset(null, winter)).toBeNull();
    expect(countryUtcOffset('XX', winter)).toBeNull();
  });

  it('prefers the explicit offset, then the country, then the order default', () => {
    expect(deriveUtcOffset({ explicit: -5, phoneCountry: 'BY', orderDefault: 3, now: winter })).toBe(-5);
    expect(deriveUtcOffset({ explicit: 0, phoneCountry: 'BY', orderDefault: 3, now: winter })).toBe(0);
    expect(deriveUtcOffset({ phoneCountry: 'BY', orderDefault: 7, now: winter })).toBe(3);
    expect(deriveUtcOffset({ phoneCountry: 'RU', orderDefault: 7, now: winter })).toBe(7);
  });
});
