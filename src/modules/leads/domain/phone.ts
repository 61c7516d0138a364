import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

export type PhoneParse = { ok: true; e164: string; country: string | null } | { ok: false; message: string };

/** Separators people type inside a number; anything else makes it invalid. */
const DECORATION = /[\s\-().]/g;

/**
 * A client phone in international format, `+` optional, validated against the full numbering-plan metadata and normalised to E.164.
 * National forms ("8 916 ...") are rejected: without a country code they are ambiguous, and API.md asks for E.164.
 */
export function normalisePhone(input: unknown): PhoneParse {
  if (typeof input !== 'string') return { ok: false, message: 'must be a string' };
  const compact = input.trim().replace(DECORATION, '');
  if (!/^\+?[0-9]{7,15}$/.test(compact)) {
    return { ok: false, message: 'must be a phone number in international format (E.164), e.g. +79161234567' };
  }
  const parsed = parsePhoneNumberFromString(compact.startsWith('+') ? compact : `+${compact}`);
  if (!parsed || !parsed.isValid()) return { ok: false, message: 'is not a valid phone number' };
  return { ok: true, e164: parsed.number, country: parsed.country ?? null };
}
