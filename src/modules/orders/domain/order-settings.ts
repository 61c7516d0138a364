import type { OrderRedialRule } from '../../dialing/domain/redial-rule';
import { CallSchedule } from './call-schedule';

/** What lead intake and call planning need to know of an order (OrdersService.getOrderSettings). */
export interface OrderSettings {
  id: number;
  code: string;
  /** The order's client (null: the call center's own): a client key reaches the order only when it is its client's. */
  clientId: number | null;
  /** always 7 items, Monday first */
  callSchedule: CallSchedule;
  /** yyyy-mm-dd, sorted */
  holidays: string[];
  ignoreLeadTimezone: boolean;
  defaultUtcOffset: number;
  /** IANA zone of the order (extension `defaultTimeZone`); absent when it has none (then `defaultUtcOffset`). */
  defaultTimeZone?: string;
  qualifiedLeadsPerDayLimit: number | null;
  consentRequired: boolean;
  /** Calls a lead gets per local day; null: no cap. */
  maxAttemptsPerDay: number | null;
  /** Redial rules per call status, over the statuses' own. */
  redialRules: OrderRedialRule[];
  callAttemptGroupId: number | null;
}
