import fc from 'fast-check';
import { findUnsafeInput, MAX_ARRAY_ITEMS, MAX_DEPTH, MAX_OBJECT_KEYS, MAX_VALUES, readsAsJson } from './input-checks';

describe('readsAsJson', () => {
  it('reads JSON media types, and a body without Content-Type, as JSON; forms and text are not', () => {
    for (const type of [undefined, '', 'application/json', 'application/json; charset=utf-8', 'application/merge-patch+json', 'APPLICATION/JSON']) {
      expect(readsAsJson(type)).toBe(true);
    }
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain', ['application/json']]) {
      expect(readsAsJson(type)).toBe(false);
    }
  });
});

describe('findUnsafeInput', () => {
  it('passes clean JSON values', () => {
    expect(findUnsafeInput({ name: 'Иван', phone: '+79161234567', customValues: { '7': 'flat' }, list: [1, 'a', null, { b: true }] })).toBeNull();
    expect(findUnsafeInput(undefined)).toBeNull();
    expect(findUnsafeInput('plain')).toBeNull();
  });

  it('names the first string holding a NUL, with its path', () => {
    expect(findUnsafeInput({ name: 'a\u0000b' })).toEqual({ field: 'name', message: 'must not contain NUL characters' });
    expect(findUnsafeInput({ customValues: { '7': 'x\u0000' } })?.field).toBe('customValues.7');
    expect(findUnsafeInput({ transferNumbers: [{ number: '1' }, { names: { en: '\u0000' } }] })?.field).toBe('transferNumbers[1].names.en');
    expect(findUnsafeInput('\u0000')?.field).toBe('body');
  });

  it('refuses keys that reach the prototype, as JSON.parse delivers them', () => {
    expect(findUnsafeInput(JSON.parse('{"customValues":{"__proto__":"x"}}'))).toEqual({ field: 'customValues.__proto__', message: 'is not an acceptable key' });
    expect(findUnsafeInput(JSON.parse('{"constructor":{"prototype":{}}}'))?.field).toBe('constructor');
    expect(findUnsafeInput({ 'a\u0000': 1 })?.field).toBe('a\\0');
  });

  it('finds a NUL wherever it is nested in any JSON value', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(
          fc.string({ minLength: 1 }).filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k) && !k.includes('\u0000')),
          tie('value'),
          { maxKeys: 4 },
        ),
      ),
    })).value;
    fc.assert(
      fc.property(json, (v) => {
        const text = JSON.stringify(v);
        expect(findUnsafeInput(v) !== null).toBe(text.includes('\\u0000'));
      }),
    );
  });
});

describe('findUnsafeInput: Unicode and depth', () => {
  it('refuses lone surrogates in values and keys, accepts proper pairs (emoji)', () => {
    expect(findUnsafeInput({ names: { ru: '\ud800' } })).toEqual({ field: 'names.ru', message: 'must be well-formed Unicode (no lone surrogates)' });
    expect(findUnsafeInput({ email: 'x\udc00@example.com' })?.field).toBe('email');
    expect(findUnsafeInput({ ['k\ud800']: 1 })?.message).toBe('is not an acceptable key');
    expect(findUnsafeInput({ name: 'Олег 😀' })).toBeNull();
  });

  it('refuses nesting deeper than MAX_DEPTH, accepts up to it', () => {
    const nest = (n: number): unknown => (n === 0 ? 'leaf' : { a: nest(n - 1) });
    expect(findUnsafeInput(nest(MAX_DEPTH - 1))).toBeNull();
    expect(findUnsafeInput(nest(MAX_DEPTH + 1))?.message).toMatch(/deeper/);
    expect(findUnsafeInput(JSON.parse('['.repeat(1500) + ']'.repeat(1500)))?.message).toMatch(/deeper/);
  });
});

describe('findUnsafeInput: size caps', () => {
  const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

  it('accepts containers at the caps', () => {
    expect(findUnsafeInput({ agentUserIds: Array.from({ length: MAX_ARRAY_ITEMS }, (_, i) => i + 1) })).toBeNull();
    expect(findUnsafeInput(keys(MAX_OBJECT_KEYS))).toBeNull();
    expect(findUnsafeInput({ customValues: keys(MAX_OBJECT_KEYS) })).toBeNull();
  });

  it('names the array or object past a cap, and the cap', () => {
    expect(findUnsafeInput({ transferNumbers: Array.from({ length: MAX_ARRAY_ITEMS + 1 }, () => ({ number: '1' })) })).toEqual({
      field: 'transferNumbers',
      message: `must have at most ${MAX_ARRAY_ITEMS} items`,
    });
    expect(findUnsafeInput({ customValues: keys(MAX_OBJECT_KEYS + 1) })).toEqual({
      field: 'customValues',
      message: `must have at most ${MAX_OBJECT_KEYS} keys`,
    });
    expect(findUnsafeInput(keys(60_000))).toEqual({ field: 'body', message: `must have at most ${MAX_OBJECT_KEYS} keys` });
    expect(findUnsafeInput({ a: [{ b: keys(MAX_OBJECT_KEYS + 1) }] })?.field).toBe('a[0].b');
  });

  it('caps the values of the whole body, however they are spread over containers', () => {
    const wide = { junk: Array.from({ length: 20 }, () => Array.from({ length: MAX_ARRAY_ITEMS }, () => 0)) };
    expect(findUnsafeInput(wide)).toEqual({ field: 'body', message: `must hold at most ${MAX_VALUES} values in all` });
    const justUnder = { junk: Array.from({ length: 9 }, () => Array.from({ length: MAX_ARRAY_ITEMS }, () => 0)) };
    expect(findUnsafeInput(justUnder)).toBeNull();
  });

  it('refuses a hostile body without visiting its items (bounded work)', () => {
    let reads = 0;
    const items = new Proxy(
      Array.from({ length: 100_000 }, () => 'x'),
      {
        get(target, prop, receiver) {
          if (typeof prop === 'string' && /^\d+$/.test(prop)) reads += 1;
          return Reflect.get(target, prop, receiver);
        },
      },
    );
    expect(findUnsafeInput({ items })?.message).toMatch(/at most/);
    expect(reads).toBe(0);
  });
});
