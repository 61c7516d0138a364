import { transliterate } from 'transliteration';

/**
 * Order codes: a-z, 0-9, `-`, `_`; 1..64 characters; unique within the order's client (orders of
 * no client share one namespace). When the client omits `code` it is derived from `title`
 * (transliterated, so Russian titles give readable codes).
 */

export const ORDER_CODE_MAX_LENGTH = 64;
const FALLBACK_CODE = 'order';
const ORDER_CODE = /^[a-z0-9_-]+$/;

/** Drops dashes at both ends (they appear after cutting or around removed characters). */
function trimDashes(s: string): string {
  return s.replace(/^-+|-+$/g, '');
}

/**
 * "Заказ №1: Ёлки" -> "zakaz-no1-yolki". `transliteration` handles Cyrillic, Latin diacritics
 * (café -> cafe, Straße -> strasse) and most other scripts; anything left that is not a-z0-9
 * (spaces, punctuation, underscores, symbols) becomes a single dash.
 */
export function slugifyOrderCode(title: string): string {
  const latin = transliterate(String(title ?? '')).toLowerCase();
  const slug = trimDashes(latin.replace(/[^a-z0-9]+/g, '-'));
  const cut = trimDashes(slug.slice(0, ORDER_CODE_MAX_LENGTH));
  return cut === '' ? FALLBACK_CODE : cut;
}

export function isValidOrderCode(code: string): boolean {
  return typeof code === 'string' && code.length >= 1 && code.length <= ORDER_CODE_MAX_LENGTH && ORDER_CODE.test(code);
}

/**
 * First free code among base, base-2, base-3, ... . The base is shortened when needed so a
 * suffixed candidate still fits in 64 characters. The caller passes the codes that already
 * start with the base (one query with LIKE) and still relies on the unique index for races.
 */
export function uniqueCodeCandidate(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const head = trimDashes(base.slice(0, ORDER_CODE_MAX_LENGTH - suffix.length)) || FALLBACK_CODE;
    const candidate = head + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}
