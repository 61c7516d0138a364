import autocannon from 'autocannon';
import type { Pool } from 'pg';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** Drives one endpoint with autocannon for a fixed time; bounded, loopback only. */
export async function load(name: string, opts: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ connections: 20, duration: 8, ...opts });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export function table(rows: LoadResult[], baseline: LoadResult): string {
  const lines = rows.map(
    (r) =>
      `${r.name.padEnd(44)} ${String(r.requestsPerSecond).padStart(7)} req/s  p50 ${String(r.p50Ms).padStart(4)} ms  p99 ${String(r.p99Ms).padStart(4)} ms  ` +
      `${(r.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}x baseline${r.errors + r.non2xx ? `  (errors ${r.errors}, non-2xx ${r.non2xx})` : ''}`,
  );
  return lines.join('\n');
}

/** A table's id range, for loads that pick ids at random. */
export interface IdRange {
  lo: number;
  hi: number;
}

export async function idRange(pool: Pool, table: string): Promise<IdRange> {
  return (await pool.query(`SELECT min(id) AS lo, max(id) AS hi FROM ${table}`)).rows[0] as IdRange;
}

/** GET `{base}{prefix}{id}/`, each request a random id of `ids` (a range, or a list of ids). */
export function getRandomIds(base: string, prefix: string, ids: IdRange | readonly number[], headers: Record<string, string> = {}): autocannon.Options {
  const pick = (): number => ('lo' in ids ? ids.lo + Math.floor(Math.random() * (ids.hi - ids.lo + 1)) : ids[Math.floor(Math.random() * ids.length)]);
  return {
    url: base,
    requests: [{ method: 'GET', setupRequest: (req: autocannon.Request) => ({ ...req, headers, path: `${prefix}${pick()}/` }) }],
  };
}
