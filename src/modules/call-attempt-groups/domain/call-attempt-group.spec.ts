import { defaultChangeOnUpdate, isDefaultOnCreate } from './call-attempt-group';

describe('the default call attempt group', () => {
  it('makes a new group default when asked or when there is none', () => {
    expect(isDefaultOnCreate(undefined, false)).toBe(true);
    expect(isDefaultOnCreate(false, false)).toBe(true);
    expect(isDefaultOnCreate(true, true)).toBe(true);
    expect(isDefaultOnCreate(undefined, true)).toBe(false);
    expect(isDefaultOnCreate(false, true)).toBe(false);
  });

  it('moves the default only by setting it on another group', () => {
    expect(defaultChangeOnUpdate(undefined, true)).toEqual({ kind: 'unchanged' });
    expect(defaultChangeOnUpdate(undefined, false)).toEqual({ kind: 'unchanged' });
    expect(defaultChangeOnUpdate(true, false)).toEqual({ kind: 'make-default' });
    expect(defaultChangeOnUpdate(true, true)).toEqual({ kind: 'unchanged' });
    expect(defaultChangeOnUpdate(false, false)).toEqual({ kind: 'unchanged' });
    expect(defaultChangeOnUpdate(false, true)).toEqual({ kind: 'rejected', message: expect.stringContaining('exactly one group must be default') });
  });
});
