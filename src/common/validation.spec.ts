import { plainToInstance, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsString, ValidateNested, validateSync } from 'class-validator';
import { mainConstraintMessage, MaxItemLength, MaxItems, MaxKeys, oversizeFields } from './validation';

describe('mainConstraintMessage', () => {
  it('prefers presence, then type, then allowed values, then ranges and formats', () => {
    expect(mainConstraintMessage({ max: 'x must not be greater than 10', isInt: 'x must be an integer number' })).toBe('x must be an integer number');
    expect(mainConstraintMessage({ maxLength: 'too long', isString: 'must be a string', isDefined: 'should not be null or undefined' })).toBe(
      'should not be null or undefined',
    );
    expect(mainConstraintMessage({ customRule: 'must not contain spaces', isIn: 'must be one of' })).toBe('must be one of');
    expect(mainConstraintMessage({ customRule: 'must not contain spaces' })).toBe('must not contain spaces');
    expect(mainConstraintMessage({})).toBeUndefined();
  });
});

describe('size caps', () => {
  class Body {
    @MaxKeys(2, 'values')
    map?: unknown;

    @MaxItems(2, 'dates')
    @MaxItemLength(3)
    list?: unknown;
  }
  const messages = (body: object) => validateSync(plainToInstance(Body, body)).flatMap((e) => Object.values(e.constraints ?? {}));

  it('pass values at the caps and values of other types (the type check is elsewhere)', () => {
    expect(messages({ map: { a: 1, b: 2 }, list: ['abc', 'de'] })).toEqual([]);
    expect(messages({ map: 'x', list: 'long string' })).toEqual([]);
    expect(messages({ map: [1, 2, 3], list: { a: 'long string' } })).toEqual([]);
  });

  it('name the field and the cap past it', () => {
    expect(messages({ map: { a: 1, b: 2, c: 3 } })).toEqual(['map must have at most 2 values']);
    expect(messages({ list: ['a', 'b', 'c'] })).toEqual(['list must have at most 2 dates']);
    expect(messages({ list: ['a', 'long'] })).toEqual(['list item 1 must be at most 3 characters']);
  });
});

describe('oversizeFields: size caps on the raw body, before class-transformer', () => {
  class Item {
    @IsString()
    number!: string;
  }
  class Body {
    @IsArray()
    @ArrayMaxSize(2)
    @ValidateNested({ each: true })
    @Type(() => Item)
    items?: Item[];

    @MaxKeys(1, 'values')
    map?: unknown;
  }

  it('names each field over its cap with the rule message, and leaves other types to the validation', () => {
    expect(oversizeFields({ items: [{}, {}, {}], map: { a: 1, b: 2 } }, Body)).toEqual([
      { field: 'items', message: 'items must contain no more than 2 elements' },
      { field: 'map', message: 'map must have at most 1 values' },
    ]);
    expect(oversizeFields({ items: [{}, {}], map: { a: 1 } }, Body)).toEqual([]);
    expect(oversizeFields({ items: 'x', map: 'y' }, Body)).toEqual([]);
    expect(oversizeFields(null, Body)).toEqual([]);
  });

  it('never touches the items of an oversize list', () => {
    const items = new Proxy(
      Array.from({ length: 10_000 }, () => ({})),
      {
        get(target, prop, receiver) {
          if (typeof prop === 'string' && /^\d+$/.test(prop)) throw new Error('item read');
          return Reflect.get(target, prop, receiver);
        },
      },
    );
    expect(oversizeFields({ items }, Body)).toHaveLength(1);
  });
});
