import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DomainError } from './domain-error';
import { MAX_IDS_PER_FILTER, parseQueryString, PositiveIds, QUERY_ARRAY_LIMIT, QUERY_PARAMETER_LIMIT, toBool, toInt, toIntArray } from './query';
import { parsePositiveInt } from './id.pipe';

describe('query parsing', () => {
  it('accepts the three array forms', () => {
    expect(toIntArray(['1', '2'])).toEqual([1, 2]);
    expect(toIntArray('1,2')).toEqual([1, 2]);
    expect(toIntArray('7')).toEqual([7]);
    expect(toIntArray({ 0: '3', 1: '4' })).toEqual([3, 4]);
    expect(toIntArray(['1,2', '3'])).toEqual([1, 2, 3]);
    expect(toIntArray(undefined)).toBeUndefined();
  });
  it('leaves non-integers for the validator to reject', () => {
    expect(toIntArray(['1', 'x'])).toEqual([1, 'x']);
    expect(toInt('1.5')).toBe('1.5');
    expect(toInt(' 12 ')).toBe(12);
  });
  it('parses booleans', () => {
    expect(toBool('true')).toBe(true);
    expect(toBool('0')).toBe(false);
    expect(toBool('yes')).toBe('yes');
  });
  it('accepts only positive int32 ids', () => {
    expect(parsePositiveInt('1')).toBe(1);
    expect(parsePositiveInt('2147483647')).toBe(2147483647);
    for (const bad of ['0', '-1', 'abc', '2147483648', '99999999999999999999', '01', '1.0', '']) {
      expect(parsePositiveInt(bad)).toBeNull();
    }
  });
});

describe('parseQueryString', () => {
  const ids = (n: number, name = 'leadIds[]') => Array.from({ length: n }, (_, i) => `${name}=${i + 1}`).join('&');
  const refusal = (q: string) => {
    try {
      parseQueryString(q);
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      return (err as DomainError).fieldErrors;
    }
    throw new Error('expected a refusal');
  };

  it('reads the array and range forms', () => {
    expect(parseQueryString('leadIds[]=1&leadIds[]=2&limit=3')).toEqual({ leadIds: ['1', '2'], limit: '3' });
    expect(parseQueryString('createdAt[1]=2026-01-01')).toEqual({ createdAt: { 1: '2026-01-01' } });
  });

  it('refuses parameters past the limit instead of dropping them (250 leadIds then limit=3)', () => {
    expect(Object.keys(parseQueryString(ids(QUERY_PARAMETER_LIMIT - 1) + '&limit=3'))).toEqual(['leadIds', 'limit']);
    expect(refusal(ids(250) + '&limit=3')).toEqual([{ field: 'query', message: `must have at most ${QUERY_PARAMETER_LIMIT} parameters` }]);
  });

  it('refuses an array index past the array limit instead of turning the array into an object', () => {
    expect(refusal(`leadIds[${QUERY_ARRAY_LIMIT + 5}]=1`)[0].message).toMatch(String(QUERY_ARRAY_LIMIT));
  });

  it('keeps a + sent unencoded as the space qs makes of it (the date range puts it back)', () => {
    expect(parseQueryString('createdAt[0]=2026-01-01T00:00:00+00:00')).toEqual({ createdAt: ['2026-01-01T00:00:00 00:00'] });
  });
});

describe('PositiveIds', () => {
  class Filter {
    @PositiveIds()
    leadIds?: number[];
  }
  const check = (value: unknown) => validateSync(plainToInstance(Filter, { leadIds: value })).map((e) => Object.values(e.constraints ?? {}));

  it(`accepts up to ${MAX_IDS_PER_FILTER} ids in any form and names the cap past it`, () => {
    const list = Array.from({ length: MAX_IDS_PER_FILTER }, (_, i) => String(i + 1));
    expect(check(list)).toEqual([]);
    expect(check(list.join(','))).toEqual([]);
    expect(check([...list, '101'])).toEqual([[`leadIds must have at most ${MAX_IDS_PER_FILTER} ids (send several requests for more)`]]);
    expect(check(`${list.join(',')},101`)).toHaveLength(1);
  });
});
