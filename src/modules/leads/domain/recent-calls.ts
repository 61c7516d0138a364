/**
 * The starts of a lead's recent calls, as the dialing facts list them (LeadDialingRow.callStarts): the daily cap looks at the lead's
 * local day, never further back than two days.
 */
export const RECENT_CALLS_MS = 2 * 86_400_000;

const listed = (startedAt: Date, now: Date) => startedAt.getTime() > now.getTime() - RECENT_CALLS_MS;

/** The recent starts with a new call counted, as a read after its insert would list them (its start, when recent). */
export function withCallStart(starts: readonly Date[], startedAt: Date, now: Date): Date[] {
  return listed(startedAt, now) ? [...starts, startedAt] : [...starts];
}

/**
 * Whether the lead has a call that started after `startedAt`, from its recent starts read before the new call; undefined when they
 * cannot tell (the new call is older than they reach, so a later call may be older than they reach too).
 */
export function laterCallAmong(starts: readonly Date[], startedAt: Date, now: Date): boolean | undefined {
  if (!listed(startedAt, now)) return undefined;
  return starts.some((t) => t.getTime() > startedAt.getTime());
}
