import type { OrderChanges } from './order';
import type { OrderRecord } from './order-record';

/**
 * The order fields the dialing decision reads (dialing/domain/dialing-decision.ts DialingRules), and the client, whose list
 * covers the order's leads: a change of any of them decides the order's leads again.
 */
const DIALING_RULE_FIELDS = [
  'consentRequired',
  'clientId',
  'maxAttemptsPerDay',
  'callSchedule',
  'callHolidayOverrides',
  'defaultTimeZone',
  'defaultUtcOffset',
  'ignoreLeadTimezone',
] as const satisfies readonly (keyof OrderChanges & keyof OrderRecord)[];

/** Whether an update changes a rule the order's leads are dialled by (compared as JSON: schedules and dates by value). */
export function changesDialingRules(before: OrderRecord, changes: OrderChanges): boolean {
  return DIALING_RULE_FIELDS.some((f) => changes[f] !== undefined && JSON.stringify(changes[f]) !== JSON.stringify(before[f] ?? null));
}
