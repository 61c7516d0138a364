import type { DialStop, RedialRule } from '../../dialing/domain/redial-rule';
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
  /** The redial rule of the call's status (the order's, else the status's own: redialRuleFor); null: the group's ladder alone. */
  rule?: RedialRule | null;
  /** The lead's calls ending in the call's status, this one included (what the rule's maxAttempts counts). */
  outcomeCalls?: number;
}

export interface AfterCall {
  attemptCount: number;
  /** When the redial is wanted (the dialing decision plans it in the order's window, under its rules); null = stop dialing. */
  dialAfter: Date | null;
  /** The outcome rule that stopped the dialling, if one did. */
  stop: DialStop | null;
}

/**
 * What a finished call does to its lead: count the attempt, then say when the next one is wanted. A call that reached the client
 * (no callback asked) stops the dialing: an agent owns the lead's status. Then the status's redial rule: final stops, and so
 * does its maxAttempts-th call ending in that status. Otherwise the n-th attempt waits the group's n-th interval (the last
 * repeats or dialing stops; the rule's afterMinutes replaces that interval), and a callback request may reset the count.
 */
export function planAfterCall(p: AfterCallParams): AfterCall {
  const attemptNumber = Math.max(0, p.previousAttempts) + 1;
  const stopped = (stop: DialStop | null): AfterCall => ({ attemptCount: attemptNumber, dialAfter: null, stop });
  if (p.outcome === 'answered' && !p.callbackRequested) return stopped(null);
  const rule = p.rule ?? null;
  if (rule?.final) return stopped('final_outcome');
  if (rule?.maxAttempts != null && (p.outcomeCalls ?? 1) >= rule.maxAttempts) return stopped('outcome_attempts_exhausted');
  const next = nextAttemptAt({
    finishedAt: p.finishedAt,
    attemptNumber,
    intervalsMinutes: p.group?.intervalsMinutes ?? [],
    repeatLast: p.group?.repeatLast ?? false,
    callbackRequested: p.callbackRequested,
    resetAttemptsEnabled: p.group?.resetAttemptsEnabled ?? false,
  });
  const afterMinutes = rule?.afterMinutes ?? null;
  const dialAfter = next.dueAt !== null && afterMinutes !== null ? new Date(p.finishedAt.getTime() + afterMinutes * 60_000) : next.dueAt;
  return { attemptCount: next.attemptCount, dialAfter, stop: null };
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
