import { getAllTimezones, getCountry } from 'countries-and-timezones';
import { FixedOffsetZone, IANAZone, Zone } from 'luxon';
import { Cache } from '../../../common/cache';
import type { FieldError } from '../../../common/domain-error';

/**
 * Time zones of leads and orders. A lead is planned in an IANA zone (real rules: DST,
 * fractional offsets) when it has one, else in its fixed `utcOffset`. Zone rules come from the
 * runtime's IANA data through luxon (Intl); a phone country's zone from `countries-and-timezones`.
 */

/** Longest accepted name (the columns are varchar(64); the longest IANA name has 32 characters). */
export const TIME_ZONE_MAX_LENGTH = 64;

const knownNames = new Map<string, string | null>();
/** IANA names (current and deprecated links) by lower case: the spelling stored ("asia/kolkata" is "Asia/Kolkata"). */
let spellings: Map<string, string> | undefined;

function spelling(name: string): string {
  spellings ??= new Map(Object.keys(getAllTimezones({ deprecated: true })).map((z) => [z.toLowerCase(), z]));
  return spellings.get(name.toLowerCase()) ?? name;
}

/**
 * The IANA name in its usual spelling, or null when the runtime's IANA data (Intl) does not know
 * it. The name is kept as the client chose it (ICU would rename Asia/Kolkata to Asia/Calcutta).
 * Offset strings ("+05:30") are refused: a fixed offset is `utcOffset`'s job.
 */
export function parseTimeZone(name: unknown): string | null {
  if (typeof name !== 'string' || name.length === 0 || name.length > TIME_ZONE_MAX_LENGTH) return null;
  if (knownNames.has(name)) return knownNames.get(name)!;
  let known: string | null = null;
  if (/^[A-Za-z]/.test(name)) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      known = spelling(name);
    } catch {
      known = null;
    }
  }
  if (knownNames.size > 2000) knownNames.clear();
  knownNames.set(name, known);
  return known;
}

/** The country's zone when it has exactly one (India, Nepal, Belarus), else null (Russia, the US, Germany with Büsingen). */
export function countryTimeZone(country: string | null | undefined): string | null {
  if (!country) return null;
  const zones = getCountry(country)?.timezones ?? [];
  return zones.length === 1 ? parseTimeZone(zones[0]) : null;
}

/** A zone to plan in: the IANA zone when named, else the fixed offset in hours. */
export function zoneOf(timeZone: string | null | undefined, utcOffsetHours: number): Zone {
  if (timeZone) {
    const zone = IANAZone.create(timeZone);
    if (zone.isValid) return zone;
  }
  return FixedOffsetZone.instance(Math.round(utcOffsetHours * 60));
}

/**
 * `utcOffset` as API.md types it (an int): the zone's offset at `at` in hours, truncated toward
 * zero for fractional zones (Kolkata +5:30 is 5, St. John's -3:30 is -3, Chatham +12:45 is 12).
 */
export function wholeHourOffset(zone: Zone, at: Date): number {
  return Math.trunc(zoneOffsetMinutes(zone, at.getTime()) / 60) || 0;
}

/** The last offset asked of each IANA zone, by the minute it holds for (the shared bounded cache). */
const lastOffsets = new Cache<string, { minute: number; offset: number }>({ ttlMs: 60_000, max: 1000 });

/**
 * A zone's offset in minutes at `ms`. Intl costs a few microseconds a call, paid per lead presented, and offsets change only at whole
 * minutes (every IANA transition since 1970), so a zone's offset is reused within the same minute.
 */
function zoneOffsetMinutes(zone: Zone, ms: number): number {
  if (zone.isUniversal) return zone.offset(ms);
  const minute = Math.floor(ms / 60_000);
  const last = lastOffsets.get(zone.name);
  if (last?.minute === minute) return last.offset;
  const offset = zone.offset(ms);
  lastOffsets.set(zone.name, { minute, offset });
  return offset;
}

/** What an order says about time zones (its default zone, else its default offset). */
export interface OrderZoneSettings {
  defaultTimeZone?: string | null;
  defaultUtcOffset: number;
  ignoreLeadTimezone: boolean;
}

/** The order's own zone: its day (daily limits, "today" in stats) and the leads' zone when it ignores theirs. */
export function orderZone(order: Pick<OrderZoneSettings, 'defaultTimeZone' | 'defaultUtcOffset'>): Zone {
  return zoneOf(order.defaultTimeZone, order.defaultUtcOffset);
}

/** The zone a lead's calls are planned in: its own, or the order's when the order ignores lead time zones. */
export function planningZone(order: OrderZoneSettings, lead: { timeZone: string | null; utcOffset: number }): Zone {
  return order.ignoreLeadTimezone ? orderZone(order) : zoneOf(lead.timeZone, lead.utcOffset);
}

export interface LeadTimeZone {
  /** IANA name, or null: the lead lives at the fixed `utcOffset`. */
  timeZone: string | null;
  /** The fixed offset; for a zone, its whole-hour offset at resolution time (what v1 and the column hold). */
  utcOffset: number;
}

/**
 * A new lead's zone, the first that applies: the `timeZone` sent; the `utcOffset` sent (a fixed
 * offset); the phone country's zone when the country has a single one; the order's
 * `defaultTimeZone`; the order's `defaultUtcOffset`. An unknown zone name is an error on `timeZone`.
 */
export function resolveLeadTimeZone(p: {
  timeZone?: string | null;
  utcOffset?: number | null;
  phoneCountry: string | null;
  order: Pick<OrderZoneSettings, 'defaultTimeZone' | 'defaultUtcOffset'>;
  now: Date;
}): { ok: true; value: LeadTimeZone } | { ok: false; error: FieldError } {
  const named = (timeZone: string): LeadTimeZone => ({ timeZone, utcOffset: wholeHourOffset(zoneOf(timeZone, 0), p.now) });
  if (p.timeZone !== undefined && p.timeZone !== null) {
    const zone = parseTimeZone(p.timeZone);
    if (!zone) return { ok: false, error: timeZoneError('timeZone') };
    return { ok: true, value: named(zone) };
  }
  if (p.utcOffset !== undefined && p.utcOffset !== null) return { ok: true, value: { timeZone: null, utcOffset: p.utcOffset } };
  const country = countryTimeZone(p.phoneCountry);
  if (country) return { ok: true, value: named(country) };
  const orderDefault = p.order.defaultTimeZone ? parseTimeZone(p.order.defaultTimeZone) : null;
  if (orderDefault) return { ok: true, value: named(orderDefault) };
  return { ok: true, value: { timeZone: null, utcOffset: p.order.defaultUtcOffset } };
}

export function timeZoneError(field: string): FieldError {
  return { field, message: 'must be an IANA time zone name, e.g. Europe/Berlin or Asia/Kolkata' };
}

/** A lead's `utcOffset` as presented: its zone's whole-hour offset now, or its fixed offset. */
export function currentUtcOffset(lead: { timeZone?: string | null; utcOffset: number }, now = new Date()): number {
  return lead.timeZone ? wholeHourOffset(zoneOf(lead.timeZone, lead.utcOffset), now) : lead.utcOffset;
}
