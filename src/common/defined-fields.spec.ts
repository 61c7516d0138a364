import { definedFields } from './defined-fields';

describe('definedFields', () => {
  it('keeps null, false and 0 and drops only undefined', () => {
    expect(definedFields({ a: undefined, b: null, c: false, d: 0, e: 'x' })).toEqual({ b: null, c: false, d: 0, e: 'x' });
  });
});
