import { mainConstraintMessage } from './validation';

describe('mainConstraintMessage', () => {
  it('prefers presence, then type, then allowed values, then ranges and formats', () => {
    expect(mainConstraintMessage({ max: 'x must not be greater than 10', isInt: 'x must be an integer number' })).toBe('x must be an integer number');
    expect(mainConstraintMessage({ maxLength: 'too long', isString: 'must be a string', isDefined: 'should not be null or undefined' })).toBe('should not be null or undefined');
    expect(mainConstraintMessage({ customRule: 'must not contain spaces', isIn: 'must be one of' })).toBe('must be one of');
    expect(mainConstraintMessage({ customRule: 'must not contain spaces' })).toBe('must not contain spaces');
    expect(mainConstraintMessage({})).toBeUndefined();
  });
});
