import { DateTime } from 'luxon';

export const MIN_UTC_OFFSET = -12;
export const MAX_UTC_OFFSET = 14;

const zonesCache = new Map<string, string[]>();

/** IANA zones of a region, from the ICU data Node ships (`Intl.Locale#getTimeZones`); fixed per process. */
function zonesOf(country: string): string[] {
  let zones = zonesCache.get(country);
  if (!zones) {
    try {
      const locale = new Intl.Locale(`und-${country}`) as Intl.Locale & { getTimeZones?: () => string[]; timeZones?: string[] };
      zones = locale.getTimeZones?.() ?? locale.timeZones ?? [];
    } catch {
      zones = [];
    }
    zonesCache.set(country, zones);
  }
  return zones;
}

/**
 * Offsets change only at DST transitions, which fall on whole hours in countries with whole-hour
 * offsets: the answer for a country is memoised per UTC hour (otherwise the hot spot of lead creation).
 */
const offsetCache = new Map<string, number | null>();
const HOUR_MS = 3_600_000;

/**
 * The country's UTC offset in whole hours at `at`, when all its zones agree on one then
 * (Germany: +1 or +2 with DST; Russia, the US: several, so null). Offsets that are not whole
 * hours (India +5:30) are null too: `utcOffset` is an integer number of hours.
 */
export function countryUtcOffset(country: string | null | undefined, at: Date): number | null {
  if (!country) return null;
  const key = `${country}@${Math.floor(at.getTime() / HOUR_MS)}`;
  if (offsetCache.has(key)) return offsetCache.get(key)!;
  const result = computeCountryOffset(country, at);
  if (offsetCache.size > 5000) offsetCache.clear();
  offsetCache.set(key, result);
  return result;
}

function computeCountryOffset(country: string, at: Date): number | null {
  const offsets = new Set<number>();
  for (const zone of zonesOf(country)) {
    const dt = DateTime.fromJSDate(at, { zone });
    if (!dt.isValid) continue;
    offsets.add(dt.offset);
  }
  if (offsets.size !== 1) return null;
  const minutes = [...offsets][0];
  if (minutes % 60 !== 0) return null;
  const hours = minutes / 60;
  return hours >= MIN_UTC_OFFSET && hours <= MAX_UTC_OFFSET ? hours : null;
}

/** `utcOffset` of a new lead: the client's, else the phone country's single offset, else the order's default. */
export function deriveUtcOffset(params: { explicit?: number | null; phoneCountry: string | null; orderDefault: number; now: Date }): number {
  if (params.explicit !== undefined && params.explicit !== null) return params.explicit;
  return countryUtcOffset(params.phoneCountry, params.now) ?? params.orderDefault;
}
