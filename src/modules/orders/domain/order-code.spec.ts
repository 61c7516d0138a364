import fc from 'fast-check';
import { isValidOrderCode, ORDER_CODE_MAX_LENGTH, slugifyOrderCode, uniqueCodeCandidate } from './order-code';

describe('slugifyOrderCode', () => {
  it.each([
    ['Summer sale 2026', 'summer-sale-2026'],
    ['Заказ №1: Ёлки', 'zakaz-no1-yolki'],
    ['Щука и ёжик', 'shchuka-i-yozhik'],
    ['Недвижимость Москва', 'nedvizhimost-moskva'],
    ['Café Ærø, Straße!', 'cafe-aero-strasse'],
    ['  --Hello,   World--  ', 'hello-world'],
    ['snake_case title', 'snake-case-title'],
    ['ABC', 'abc'],
    ['', 'order'],
    ['!!!', 'order'],
    ['———', 'order'],
  ])('%p -> %p', (title, code) => {
    expect(slugifyOrderCode(title)).toBe(code);
  });

  it('cuts to 64 characters without a trailing dash', () => {
    const code = slugifyOrderCode(`${'a'.repeat(63)} bbbb`);
    expect(code).toBe('a'.repeat(63));
    expect(slugifyOrderCode('я'.repeat(40))).toBe('ya'.repeat(32));
  });

  it('property: always a valid code; idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('Привет мир', 'Ñandú')), (title) => {
        const code = slugifyOrderCode(title);
        expect(isValidOrderCode(code)).toBe(true);
        expect(code).not.toMatch(/^-|-$|--/);
        expect(slugifyOrderCode(code)).toBe(code);
      }),
      { numRuns: 500 },
    );
  });

  it('property: Cyrillic text yields a non-fallback code', () => {
    const cyr = fc.string({ unit: fc.constantFrom(...'абвгдеёжзийклмнопрстуфхцчшщыэюяАБВГДЕЁЖЗ'.split('')), minLength: 1 });
    fc.assert(
      fc.property(cyr, (t) => {
        expect(slugifyOrderCode(t)).toMatch(/^[a-z]+$/);
      }),
      { numRuns: 300 },
    );
  });
});

describe('isValidOrderCode', () => {
  it.each(['a', 'order-1', 'my_order', '0', 'x'.repeat(64)])('accepts %p', (c) => {
    expect(isValidOrderCode(c)).toBe(true);
  });
  it.each(['', 'A', 'a b', 'заказ', 'a.b', 'x'.repeat(65), 'a\n'])('rejects %p', (c) => {
    expect(isValidOrderCode(c)).toBe(false);
  });
});

describe('uniqueCodeCandidate', () => {
  it('returns base, then base-2, base-3, ...', () => {
    expect(uniqueCodeCandidate('sale', new Set())).toBe('sale');
    expect(uniqueCodeCandidate('sale', new Set(['sale']))).toBe('sale-2');
    expect(uniqueCodeCandidate('sale', new Set(['sale', 'sale-2', 'sale-3']))).toBe('sale-4');
    expect(uniqueCodeCandidate('sale', new Set(['sale', 'sale-3']))).toBe('sale-2');
  });

  it('shortens a long base so the suffix fits', () => {
    const base = 'a'.repeat(64);
    expect(uniqueCodeCandidate(base, new Set([base]))).toBe(`${'a'.repeat(62)}-2`);
    const dashy = `${'a'.repeat(61)}-bc`;
    expect(uniqueCodeCandidate(dashy, new Set([dashy]))).toBe(`${'a'.repeat(61)}-2`);
  });

  it('property: result is valid, free, and the smallest free suffix', () => {
    fc.assert(
      fc.property(
        fc
          .string({ unit: fc.constantFrom('a', 'b', '-', '_', '1'), minLength: 1, maxLength: ORDER_CODE_MAX_LENGTH })
          .filter((s) => /^[a-z0-9_]/.test(s) && /[a-z0-9_]$/.test(s)),
        fc.nat({ max: 30 }),
        (base, n) => {
          const taken = new Set<string>();
          // take base and the first n suffixed candidates
          let c = base;
          for (let i = 0; i <= n; i++) {
            taken.add(c);
            c = uniqueCodeCandidate(base, taken);
          }
          const r = uniqueCodeCandidate(base, taken);
          expect(taken.has(r)).toBe(false);
          expect(isValidOrderCode(r)).toBe(true);
          expect(r.endsWith(`-${n + 2}`)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
