import fc from 'fast-check';
import { normalisePhone } from './phone';

describe('normalisePhone', () => {
  it('accepts international numbers with or without +, normalising to +E.164', () => {
    expect(normalisePhone('+79161234567')).toEqual({ ok: true, e164: '+79161234567', country: 'RU' });
    expect(normalisePhone('79161234567')).toEqual({ ok: true, e164: '+79161234567', country: 'RU' });
    expect(normalisePhone(' +7 (916) 123-45-67 ')).toEqual({ ok: true, e164: '+79161234567', country: 'RU' });
    expect(normalisePhone('+12025550123')).toMatchObject({ ok: true, e164: '+12025550123', country: 'US' });
    expect(normalisePhone('4915123456789')).toMatchObject({ ok: true, e164: '+4915123456789', country: 'DE' });
    expect(normalisePhone('+77012345678')).toMatchObject({ ok: true, country: 'KZ' });
  });

  it('rejects national forms, impossible numbers and junk', () => {
    for (const bad of ['89161234567', '+70001234567', '+12345', '', 'abc', '+7916abc4567', '+7916123456789012', '++79161234567', '+7 916 123 45 67 ext 2']) {
      expect(normalisePhone(bad).ok).toBe(false);
    }
    expect(normalisePhone(79161234567).ok).toBe(false);
    expect(normalisePhone(null).ok).toBe(false);
  });

  it('is idempotent: a normalised number normalises to itself', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\+?[1-9][0-9]{6,14}$/), (input) => {
        const first = normalisePhone(input);
        if (!first.ok) return;
        expect(first.e164).toMatch(/^\+[1-9][0-9]{6,14}$/);
        expect(normalisePhone(first.e164)).toEqual(first);
        expect(normalisePhone(first.e164.slice(1))).toEqual(first);
      }),
    );
  });
});
