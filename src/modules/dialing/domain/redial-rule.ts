/**
 * What a call's outcome (its status) does to the lead's next call: wait `afterMinutes` instead of the attempt group's interval,
 * stop after `maxAttempts` calls ending in that status, or stop at once (`final`). A call status carries one; an order may
 * override it per status. Null fields: that part of the rule is the attempt group's.
 */
export interface RedialRule {
  afterMinutes: number | null;
  maxAttempts: number | null;
  final: boolean;
}

/** An order's rule for calls ending in `statusId`, over the status's own. */
export interface OrderRedialRule extends RedialRule {
  statusId: number;
}

/** Why an outcome rule stopped a lead's dialling (stored on the lead; `callable` names it). */
export const DIAL_STOPS = ['final_outcome', 'outcome_attempts_exhausted'] as const;
export type DialStop = (typeof DIAL_STOPS)[number];

/** Bounds of a rule's numbers (the database checks the same). */
export const REDIAL_LIMITS = { maxAfterMinutes: 525_600, maxAttempts: 1000 } as const;

/** A rule that changes nothing: no delay, no cap, not final. */
export const NO_REDIAL_RULE: RedialRule = { afterMinutes: null, maxAttempts: null, final: false };

/** The rule for a call ending in `statusId`: the order's, else the status's own; null when neither says anything. */
export function redialRuleFor(statusId: number, orderRules: readonly OrderRedialRule[], statusRule: RedialRule | null): RedialRule | null {
  const rule = orderRules.find((r) => r.statusId === statusId) ?? statusRule;
  if (!rule || (rule.afterMinutes === null && rule.maxAttempts === null && !rule.final)) return null;
  return { afterMinutes: rule.afterMinutes, maxAttempts: rule.maxAttempts, final: rule.final };
}
