/** Output formats of API.md, all in UTC. Times are stored as timestamptz. */

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** ISO 8601 without milliseconds, explicit offset: 2026-11-22T09:30:00+00:00. */
export function isoDateTime(d: Date): string;
export function isoDateTime(d: Date | null | undefined): string | null;
export function isoDateTime(d: Date | null | undefined): string | null {
  if (!d) return null;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}+00:00`;
}

/** yyyy-mm-dd hh:mm:ss (User.lastLoginAt, lastActivityAt). */
export function sqlDateTime(d: Date | null | undefined): string | null {
  if (!d) return null;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** dd.mm.yyyy hh:mm (agent group detail). */
export function shortDateTime(d: Date): string {
  return `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** Unix seconds (v1 UF_CALL_DATE_TIME). */
export function unixSeconds(d: Date | null | undefined): number | null {
  return d ? Math.floor(d.getTime() / 1000) : null;
}
