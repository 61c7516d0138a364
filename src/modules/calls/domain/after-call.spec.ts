import fc from 'fast-check';
import type { RedialRule } from '../../dialing/domain/redial-rule';
import { AfterCallParams, callTimeProblems, CLOCK_SKEW_TOLERANCE_MS, durationProblems, planAfterCall } from './after-call';

const base = (over: Partial<AfterCallParams> = {}): AfterCallParams => ({
  // Wednesday 2026-11-25 10:00 UTC
  finishedAt: new Date('2026-11-25T10:00:00Z'),
  previousAttempts: 0,
  outcome: 'not-answered',
  callbackRequested: false,
  group: { intervalsMinutes: [5, 60, 1440], repeatLast: false, resetAttemptsEnabled: true },
  ...over,
});

describe('planAfterCall', () => {
  it('waits the n-th interval after the n-th attempt', () => {
    expect(planAfterCall(base())).toEqual({ attemptCount: 1, dialAfter: new Date('2026-11-25T10:05:00Z'), stop: null });
    expect(planAfterCall(base({ previousAttempts: 1 }))).toEqual({ attemptCount: 2, dialAfter: new Date('2026-11-25T11:00:00Z'), stop: null });
    expect(planAfterCall(base({ previousAttempts: 2 }))).toEqual({ attemptCount: 3, dialAfter: new Date('2026-11-26T10:00:00Z'), stop: null });
  });

  it('stops after the last interval unless the group repeats it', () => {
    expect(planAfterCall(base({ previousAttempts: 3 }))).toEqual({ attemptCount: 4, dialAfter: null, stop: null });
    const repeat = base({ previousAttempts: 3, group: { intervalsMinutes: [5, 60], repeatLast: true, resetAttemptsEnabled: false } });
    expect(planAfterCall(repeat)).toEqual({ attemptCount: 4, dialAfter: new Date('2026-11-25T11:00:00Z'), stop: null });
  });

  it('stops dialing once the client was reached, unless a callback was asked', () => {
    expect(planAfterCall(base({ outcome: 'answered' }))).toEqual({ attemptCount: 1, dialAfter: null, stop: null });
    expect(planAfterCall(base({ outcome: 'answered', callbackRequested: true, previousAttempts: 2 }))).toEqual({
      attemptCount: 0,
      dialAfter: new Date('2026-11-25T10:05:00Z'),
      stop: null,
    });
  });

  it("a status's rule: final stops, its maxAttempts-th call in that status stops, afterMinutes replaces the group's interval", () => {
    const rule = (r: Partial<RedialRule>): RedialRule => ({ afterMinutes: null, maxAttempts: null, final: false, ...r });
    expect(planAfterCall(base({ rule: rule({ final: true, afterMinutes: 5 }) }))).toEqual({ attemptCount: 1, dialAfter: null, stop: 'final_outcome' });
    const capped = base({ previousAttempts: 1, rule: rule({ maxAttempts: 2 }) });
    expect(planAfterCall({ ...capped, outcomeCalls: 1 })).toEqual({ attemptCount: 2, dialAfter: new Date('2026-11-25T11:00:00Z'), stop: null });
    expect(planAfterCall({ ...capped, outcomeCalls: 2 })).toEqual({ attemptCount: 2, dialAfter: null, stop: 'outcome_attempts_exhausted' });
    expect(planAfterCall(base({ rule: rule({ afterMinutes: 15 }) }))).toEqual({ attemptCount: 1, dialAfter: new Date('2026-11-25T10:15:00Z'), stop: null });
    // The group's ladder still ends the dialling: the rule replaces an interval, it does not add attempts.
    expect(planAfterCall(base({ previousAttempts: 3, rule: rule({ afterMinutes: 15 }) }))).toEqual({ attemptCount: 4, dialAfter: null, stop: null });
    // Reaching the client stops before any rule.
    expect(planAfterCall(base({ outcome: 'answered', rule: rule({ afterMinutes: 15 }) })).dialAfter).toBeNull();
  });

  it('keeps counting on callback when the group does not reset', () => {
    const g = { intervalsMinutes: [5, 60, 1440], repeatLast: false, resetAttemptsEnabled: false };
    expect(planAfterCall(base({ callbackRequested: true, previousAttempts: 1, group: g })).attemptCount).toBe(2);
  });

  it('never wants a redial before the call ended', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 10 }),
        fc.array(fc.integer({ min: 0, max: 10_000 }), { maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom<'answered' | 'not-answered' | 'failed'>('answered', 'not-answered', 'failed'),
        (finishedAt, previousAttempts, intervalsMinutes, repeatLast, callbackRequested, outcome) => {
          const r = planAfterCall({
            finishedAt,
            previousAttempts,
            outcome,
            callbackRequested,
            group: { intervalsMinutes, repeatLast, resetAttemptsEnabled: true },
          });
          expect(r.attemptCount).toBeGreaterThanOrEqual(0);
          if (r.dialAfter) expect(r.dialAfter.getTime()).toBeGreaterThanOrEqual(finishedAt.getTime());
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('durationProblems', () => {
  it('accepts consistent durations and rejects parts larger than the total', () => {
    expect(durationProblems({ totalDurationSeconds: 60, waitTimeDurationSeconds: 10, talkTimeDurationSeconds: 50 })).toEqual([]);
    expect(durationProblems({ totalDurationSeconds: 30, waitTimeDurationSeconds: 10, talkTimeDurationSeconds: 50 })).toHaveLength(1);
  });
});

describe('callTimeProblems', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it('accepts calls that ended in the past, or slightly ahead within the clock-skew tolerance', () => {
    expect(callTimeProblems(undefined, 60, now)).toEqual([]);
    expect(callTimeProblems(new Date('2026-11-22T11:58:00Z'), 60, now)).toEqual([]);
    expect(callTimeProblems(new Date('2026-11-22T12:03:00Z'), 60, now)).toEqual([]);
  });
  it('refuses a call that ends more than the tolerance after now', () => {
    expect(callTimeProblems(new Date('2030-11-21T00:00:00Z'), 10, now)).toEqual([{ field: 'startedAt', message: expect.stringContaining('future') }]);
    expect(callTimeProblems(new Date(now.getTime() + CLOCK_SKEW_TOLERANCE_MS - 59_000), 60, now)).toHaveLength(1);
  });
});

describe('callTimeProblems: the earliest call', () => {
  it("refuses calls said to start before 2000 (typos, year 0, JavaScript's minimum date)", () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(callTimeProblems(new Date('1999-12-31T23:59:59Z'), 1, now)).toEqual([{ field: 'startedAt', message: 'must not be before 2000-01-01' }]);
    expect(callTimeProblems(new Date(-8.64e15), 1, now)).toHaveLength(1);
    expect(callTimeProblems(new Date('2000-01-01T00:00:00Z'), 1, now)).toEqual([]);
  });
});
