/**
 * Retry schedules: a comma-separated list of durations (`5s,5m,30m,2h,5h,10h,10h`), each a whole
 * number with a unit (ms, s, m, h, d). The n-th failed attempt waits the n-th duration; once the
 * list is used up the delivery is `failed`.
 */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** At most this many retries; longer lists are a configuration mistake. */
export const MAX_RETRIES = 50;
/** One wait at most 7 days: delivery rows are kept as long as events (30 days by default). */
export const MAX_WAIT_MS = 7 * 86_400_000;

export type ParseResult = { ok: true; value: number[] } | { ok: false; errors: string[] };

/** Parses a schedule into milliseconds; an empty string is "no retries". */
export function parseRetrySchedule(text: string): ParseResult {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const errors: string[] = [];
  const value: number[] = [];
  if (parts.length > MAX_RETRIES) errors.push(`at most ${MAX_RETRIES} retries`);
  for (const part of parts.slice(0, MAX_RETRIES)) {
    const m = /^(\d{1,9})(ms|s|m|h|d)$/.exec(part);
    if (!m) {
      errors.push(`"${part}" is not a duration such as 500ms, 5s, 5m, 2h or 1d`);
      continue;
    }
    const ms = Number(m[1]) * UNIT_MS[m[2]];
    if (ms > MAX_WAIT_MS) errors.push(`"${part}" is longer than 7 days`);
    else value.push(ms);
  }
  return errors.length ? { ok: false, errors } : { ok: true, value };
}

/**
 * After `attempts` attempts (this one included) failed: the wait before the next one, or null
 * when the schedule is used up (the delivery is then `failed`).
 */
export function nextRetryDelayMs(schedule: readonly number[], attempts: number): number | null {
  return attempts >= 1 && attempts <= schedule.length ? schedule[attempts - 1] : null;
}

/** What one attempt's answer means for its delivery. */
export interface AttemptOutcome {
  status: 'pending' | 'delivered' | 'failed';
  statusCode: number | null;
  error: string | null;
  /** Wait before the next attempt (status pending), null otherwise. */
  delayMs: number | null;
  /** The endpoint answered 410 Gone: the webhook is to be disabled. */
  gone: boolean;
}

/**
 * The outcome of an attempt, `attempts` counting it: a 2xx (no error) is delivered; 410 fails the
 * delivery at once; anything else waits the schedule's next delay, or fails once it is used up.
 */
export function attemptOutcome(schedule: readonly number[], attempts: number, answer: { statusCode: number | null; error: string | null }): AttemptOutcome {
  if (answer.error === null) return { status: 'delivered', statusCode: answer.statusCode, error: null, delayMs: null, gone: false };
  const gone = answer.statusCode === 410;
  const delayMs = gone ? null : nextRetryDelayMs(schedule, attempts);
  return { status: delayMs === null ? 'failed' : 'pending', statusCode: answer.statusCode, error: answer.error, delayMs, gone };
}
