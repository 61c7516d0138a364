import { attemptOutcome, DEFAULT_RETRY_SCHEDULE, nextRetryDelayMs, parseRetrySchedule } from './retry-schedule';

describe('retry schedule', () => {
  it('parses the default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about a day and a half)', () => {
    const r = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
    expect(r).toEqual({ ok: true, value: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] });
    if (r.ok) expect(r.value.reduce((a, b) => a + b, 0) / 3_600_000).toBeCloseTo(27.6, 1);
  });

  it('accepts ms, s, m, h, d with spaces around commas; empty means no retries', () => {
    expect(parseRetrySchedule(' 200ms, 1s ,2m,1h,1d')).toEqual({ ok: true, value: [200, 1000, 120_000, 3_600_000, 86_400_000] });
    expect(parseRetrySchedule('')).toEqual({ ok: true, value: [] });
  });

  it('refuses anything else, naming each bad part', () => {
    const r = parseRetrySchedule('5s,five,10x,-1s,8d');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors).toHaveLength(4);
      expect(r.errors.join(' ')).toContain('"five"');
      expect(r.errors.join(' ')).toContain('"8d" is longer than 7 days');
    }
    expect(parseRetrySchedule(Array(51).fill('1s').join(',')).ok).toBe(false);
  });

  it('gives the n-th wait after the n-th failed attempt, then null (failed)', () => {
    const s = [10, 20, 30];
    expect([1, 2, 3, 4].map((n) => nextRetryDelayMs(s, n))).toEqual([10, 20, 30, null]);
    expect(nextRetryDelayMs([], 1)).toBeNull();
  });
});

describe('attemptOutcome', () => {
  const s = [10, 20];

  it('a 2xx is delivered, whatever the attempt', () => {
    expect(attemptOutcome(s, 3, { statusCode: 204, error: null })).toEqual({ status: 'delivered', statusCode: 204, error: null, delayMs: null, gone: false });
  });

  it('a failure waits the next delay of the schedule, then fails once it is used up', () => {
    expect(attemptOutcome(s, 1, { statusCode: 500, error: 'HTTP 500' })).toMatchObject({ status: 'pending', delayMs: 10, gone: false });
    expect(attemptOutcome(s, 2, { statusCode: null, error: 'timed out after 10000 ms' })).toMatchObject({ status: 'pending', delayMs: 20, statusCode: null });
    expect(attemptOutcome(s, 3, { statusCode: 503, error: 'HTTP 503' })).toMatchObject({ status: 'failed', delayMs: null, error: 'HTTP 503' });
  });

  it('410 Gone fails the delivery at once and asks for the webhook to be disabled', () => {
    expect(attemptOutcome(s, 1, { statusCode: 410, error: 'HTTP 410' })).toEqual({
      status: 'failed',
      statusCode: 410,
      error: 'HTTP 410',
      delayMs: null,
      gone: true,
    });
  });
});
