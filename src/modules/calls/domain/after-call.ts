import { nextAttemptAt } from './redial-planning';

/** Outcome categories of the call status catalogue. */
export type CallOutcome = 'answered' | 'not-answered' | 'failed';

export interface AttemptGroupRules {
  intervalsMinutes: number[];
  repeatLast: boolean;
  resetAttemptsEnabled: boolean;
}

export interface AfterCallParams {
  finishedAt: Date;
  /** Attempts counted on the lead before this call. */
  previousAttempts: number;
  outcome: CallOutcome;
  callbackRequested: boolean;
  /** The order's call attempt group, or the default group; null when there is none. */
  group: AttemptGroupRules | null;
}

export interface AfterCall {
  attemptCount: number;
  /** When the redial is wanted (the dialing decision plans it in the order's window, under its rules); null = stop dialing. */
  dialAfter: Date | null;
}

/**
 * What a finished call does to its lead: count the attempt, then say when the next one is wanted. A call that reached the client
 * (no callback asked) stops the dialing: an agent owns the lead's status. Otherwise the n-th attempt waits the group's n-th
 * interval (the last repeats or dialing stops), and a callback request may reset the count.
 */
export function planAfterCall(p: AfterCallParams): AfterCall {
  const attemptNumber = Math.max(0, p.previousAttempts) + 1;
  if (p.outcome === 'answered' && !p.callbackRequested) return { attemptCount: attemptNumber, dialAfter: null };
  const next = nextAttemptAt({
    finishedAt: p.finishedAt,
    attemptNumber,
    intervalsMinutes: p.group?.intervalsMinutes ?? [],
    repeatLast: p.group?.repeatLast ?? false,
    callbackRequested: p.callbackRequested,
    resetAttemptsEnabled: p.group?.resetAttemptsEnabled ?? false,
  });
  return { attemptCount: next.attemptCount, dialAfter: next.dueAt };
}

export interface CallDurations {
  totalDurationSeconds: number;
  waitTimeDurationSeconds: number;
  talkTimeDurationSeconds: number;
}

/** Durations are whole seconds, none negative, and the parts fit in the total. */
/** How far ahead of our clock a platform's clock may run before its call times are refused. */
export const CLOCK_SKEW_TOLERANCE_MS = 5 * 60_000;

/** No call of this platform is older; earlier times are typos (and PostgreSQL and ISO 8601 output would misbehave near year 0). */
export const EARLIEST_CALL = new Date('2000-01-01T00:00:00Z');

/** A finished call cannot have ended after now (beyond the skew tolerance), nor started before EARLIEST_CALL. */
export function callTimeProblems(startedAt: Date | undefined, totalDurationSeconds: number, now: Date): { field: string; message: string }[] {
  if (!startedAt) return [];
  if (!(startedAt.getTime() >= EARLIEST_CALL.getTime())) return [{ field: 'startedAt', message: 'must not be before 2000-01-01' }];
  const endedAt = startedAt.getTime() + totalDurationSeconds * 1000;
  return endedAt > now.getTime() + CLOCK_SKEW_TOLERANCE_MS
    ? [{ field: 'startedAt', message: 'a finished call cannot end in the future (startedAt + totalDurationSeconds is after now)' }]
    : [];
}

export function durationProblems(d: CallDurations): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  if (d.waitTimeDurationSeconds + d.talkTimeDurationSeconds > d.totalDurationSeconds) {
    problems.push({ field: 'totalDurationSeconds', message: 'must be at least waitTimeDurationSeconds + talkTimeDurationSeconds' });
  }
  return problems;
}
