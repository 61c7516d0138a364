import { DomainError } from './domain-error';
import { parseBound, parseCreatedAtRange } from './date-range';

describe('parseCreatedAtRange', () => {
  it('reads both bounds, either bound, or none', () => {
    expect(parseCreatedAtRange(['2026-01-01T00:00:00Z', '2026-01-02T00:00:00+03:00'])).toEqual({
      from: new Date('2026-01-01T00:00:00Z'),
      to: new Date('2026-01-01T21:00:00Z'),
    });
    // eslint-disable-next-line no-sparse-arrays
    expect(parseCreatedAtRange([, '2026-01-02T00:00:00Z'])).toEqual({ from: undefined, to: new Date('2026-01-02T00:00:00Z') });
    expect(parseCreatedAtRange({ 1: '2026-01-02T00:00:00Z' })).toEqual({ from: undefined, to: new Date('2026-01-02T00:00:00Z') });
    expect(parseCreatedAtRange('2026-01-01')).toEqual({ from: new Date('2026-01-01T00:00:00Z'), to: undefined });
    expect(parseCreatedAtRange(undefined)).toEqual({});
  });
  it('reads a date-only end bound as the end of that day', () => {
    expect(parseCreatedAtRange([undefined, '2026-01-02']).to).toEqual(new Date('2026-01-02T23:59:59.999Z'));
  });
  it('rejects garbage, extra keys and inverted ranges with a field error', () => {
    expect(() => parseCreatedAtRange(['yesterday'])).toThrow(DomainError);
    expect(() => parseCreatedAtRange(['2026-01-02', '2026-01-01'])).toThrow(DomainError);
    expect(() => parseCreatedAtRange({ 2: '2026-01-01' })).toThrow(DomainError);
    expect(() => parseCreatedAtRange([{ a: 1 }])).toThrow(DomainError);
  });
});

describe('parseBound: a + sent unencoded', () => {
  it('reads a space where the offset sign belongs as +', () => {
    expect(parseBound('2026-01-01T00:00:00 00:00', false)).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(parseBound('2026-01-01T03:00:00 03:00', false)).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(parseBound('2026-01-01T03:00 0300', false)).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(parseBound('2026-01-01T03:00:00.500 03', false)).toEqual(new Date('2026-01-01T00:00:00.500Z'));
    expect(parseCreatedAtRange(['2026-01-01T00:00:00 00:00']).from).toEqual(new Date('2026-01-01T00:00:00Z'));
  });

  it('reads no other space as +', () => {
    expect(parseBound('2026-01-01 00:00', false)).toBeNull();
    expect(parseBound('2026-01-01T00:00:00  00:00', false)).toBeNull();
    expect(parseBound('2026-01-01T00:00:00 00:00:00', false)).toBeNull();
    expect(parseBound('2026-01-01T00:00:00 abc', false)).toBeNull();
    expect(parseBound(`2026-01-01T00:00:00${' '.repeat(100)}`, false)).toBeNull();
  });
});
