/**
 * A call attempt interval group: minutes to wait after each unanswered attempt (`intervals`),
 * what to do past the end of the list (`repeatLastInterval`), and whether a callback request
 * restarts the ladder (`resetAttemptsEnabled`). Exactly one group is the default.
 */
export interface CallAttemptGroup {
  id: number;
  title: string;
  intervals: number[];
  isDefault: boolean;
  resetAttemptsEnabled: boolean;
  repeatLastInterval: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type CallAttemptGroupFields = Pick<CallAttemptGroup, 'title' | 'intervals' | 'resetAttemptsEnabled' | 'repeatLastInterval'>;

export const MAX_TITLE_LENGTH = 255;
/** At most this many attempts are planned by one group. */
export const MAX_INTERVALS = 50;
/** One interval is at most 30 days. */
export const MAX_INTERVAL_MINUTES = 43_200;

/** A new group is the default when asked to be, or when no group is the default yet (the first group, typically). */
export function isDefaultOnCreate(requested: boolean | undefined, someGroupIsDefault: boolean): boolean {
  return requested === true || !someGroupIsDefault;
}

export type DefaultChange = { kind: 'unchanged' } | { kind: 'make-default' } | { kind: 'rejected'; message: string };

/**
 * What an update's `isDefault` does to a group. `true` makes it the default (the caller clears
 * the others in the same transaction); `false` on the default is refused, because the default can
 * only move by making another group the default; `false` on another group changes nothing.
 */
export function defaultChangeOnUpdate(requested: boolean | undefined, isCurrentlyDefault: boolean): DefaultChange {
  if (requested === undefined) return { kind: 'unchanged' };
  if (requested) return isCurrentlyDefault ? { kind: 'unchanged' } : { kind: 'make-default' };
  if (isCurrentlyDefault) {
    return { kind: 'rejected', message: 'exactly one group must be default: make another group the default instead' };
  }
  return { kind: 'unchanged' };
}
