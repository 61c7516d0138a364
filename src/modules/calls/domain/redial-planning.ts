/**
 * Redial planning after a finished call, driven by the order's call attempt interval group
 * (`intervals` in minutes, `resetAttemptsEnabled`). The result is the raw due time; the caller
 * clips it into the order's schedule with `nextCallableAt`.
 */

export interface NextAttemptParams {
  finishedAt: Date;
  /** Attempts made so far, including the call that just finished (>= 1). */
  attemptNumber: number;
  intervalsMinutes: number[];
  /** Past the end of the list: keep repeating the last interval (true) or stop dialing (false). */
  repeatLast: boolean;
  /** The customer asked to be called back. */
  callbackRequested: boolean;
  resetAttemptsEnabled: boolean;
}

export interface NextAttempt {
  /** Attempt count to store on the lead. */
  attemptCount: number;
  /** When to dial next; null = stop dialing. */
  dueAt: Date | null;
}

const MS_PER_MINUTE = 60_000;

export function nextAttemptAt(params: NextAttemptParams): NextAttempt {
  const { finishedAt, attemptNumber, intervalsMinutes: intervals } = params;
  const finishedMs = finishedAt.getTime();
  if (!Number.isFinite(finishedMs)) throw new RangeError('finishedAt is not a valid date');
  if (!Number.isInteger(attemptNumber) || attemptNumber < 1) {
    throw new RangeError('attemptNumber must be an integer >= 1');
  }
  // A negative wait would schedule the redial in the past; refuse rather than guess.
  if (!intervals.every((m) => Number.isFinite(m) && m >= 0)) {
    throw new RangeError('intervals must be non-negative numbers of minutes');
  }
  const after = (minutes: number) => new Date(finishedMs + minutes * MS_PER_MINUTE);

  // A callback request starts the ladder afresh (when the group allows it): the customer is
  // engaged, so earlier unanswered attempts should not use up the remaining budget.
  if (params.callbackRequested && params.resetAttemptsEnabled) {
    return { attemptCount: 0, dueAt: intervals.length > 0 ? after(intervals[0]) : null };
  }

  // After the n-th attempt wait intervals[n-1]; beyond the list repeat the last or stop.
  let wait: number | undefined = intervals[attemptNumber - 1];
  if (wait === undefined && params.repeatLast) wait = intervals[intervals.length - 1];
  return { attemptCount: attemptNumber, dueAt: wait === undefined ? null : after(wait) };
}
