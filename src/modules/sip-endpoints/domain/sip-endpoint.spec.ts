import { normaliseSipNumber } from './sip-endpoint';

describe('normaliseSipNumber', () => {
  it('normalises valid numbers of several countries to E.164 with +', () => {
    expect(normaliseSipNumber('+74951234567')).toBe('+74951234567');
    expect(normaliseSipNumber('74951234567')).toBe('+74951234567');
    expect(normaliseSipNumber('+7 (495) 123-45-67')).toBe('+74951234567');
    expect(normaliseSipNumber('+44 20 7123 4567')).toBe('+442071234567');
    expect(normaliseSipNumber('12025550123')).toBe('+12025550123');
    expect(normaliseSipNumber('+4915112345678')).toBe('+4915112345678');
  });

  it('rejects what is not a valid number', () => {
    for (const bad of ['', '+', '+1234', '+7495123456', 'abc', '+7495abc4567', '8 (495) 123-45-67 ext 5', '+999123456789', '1'.repeat(40)]) {
      expect(normaliseSipNumber(bad)).toBeNull();
    }
  });
});
