import { toBool, toInt, toIntArray } from './query';
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
