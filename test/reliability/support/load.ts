import { ConnectionError, HttpClient, HttpResult, RequestOptions } from './http';
import { sleep } from './postgres';

/** Counts of outcomes by label ("200", "503", "ECONNREFUSED", ...). */
export class Tally {
  readonly counts: Record<string, number> = {};

  add(label: string | number): void {
    this.counts[String(label)] = (this.counts[String(label)] ?? 0) + 1;
  }

  get(label: string | number): number {
    return this.counts[String(label)] ?? 0;
  }

  total(): number {
    return Object.values(this.counts).reduce((a, b) => a + b, 0);
  }
}

/** Runs `fn` over `items` with at most `concurrency` in flight. */
export async function eachLimited<T>(items: T[], concurrency: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}

/**
 * Fires `fn` at a fixed rate (open loop: a slow answer does not slow the next request down, as
 * with real independent clients) until `stop()` says so; resolves when every request has ended.
 */
export async function atFixedRate(perSecond: number, stop: () => boolean, fn: (i: number) => Promise<void>): Promise<number> {
  const inFlight: Promise<void>[] = [];
  const interval = 1000 / perSecond;
  const start = performance.now();
  let i = 0;
  while (!stop()) {
    inFlight.push(fn(i).catch(() => undefined));
    i++;
    const wait = start + i * interval - performance.now();
    if (wait > 0) await sleep(wait);
  }
  await Promise.all(inFlight);
  return i;
}

export interface RetryPolicy {
  /** Give up after this long (the request is then "unacknowledged"). */
  maxMs: number;
  /** Called with every answer or connection error, retried or not. */
  onAttempt?: (outcome: string, at: number) => void;
}

export type Acknowledged = { ok: true; result: HttpResult; attempts: number } | { ok: false; last: string; attempts: number };

/**
 * What a careful integrator does: resend the same request (same Idempotency-Key) on 503, 500,
 * 409 "still in progress" or a connection error, with a short backoff, until it gets an answer.
 */
export async function sendUntilAcknowledged(http: HttpClient, method: string, path: string, o: RequestOptions, policy: RetryPolicy): Promise<Acknowledged> {
  const deadline = Date.now() + policy.maxMs;
  let attempts = 0;
  let last: string;
  for (;;) {
    attempts++;
    try {
      const r = await http.request(method, path, { timeoutMs: 20_000, ...o });
      last = String(r.status);
      policy.onAttempt?.(last, Date.now());
      if (r.status >= 200 && r.status < 300) return { ok: true, result: r, attempts };
      const inProgress = r.status === 409 && /in progress/i.test(String(r.body?.message ?? ''));
      const retry = r.status === 503 || r.status === 500 || r.status === 502 || r.status === 504 || r.status === 429 || inProgress;
      if (!retry) return { ok: false, last, attempts };
    } catch (err) {
      if (!(err instanceof ConnectionError)) throw err;
      last = err.code;
      policy.onAttempt?.(last, Date.now());
    }
    if (Date.now() > deadline) return { ok: false, last, attempts };
    await sleep(Math.min(200 * attempts, 1000));
  }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const round = (n: number, digits = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : n);
