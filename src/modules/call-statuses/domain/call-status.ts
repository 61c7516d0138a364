import type { RedialRule } from '../../dialing/domain/redial-rule';

export const CALL_STATUS_CATEGORIES = ['answered', 'not-answered', 'failed'] as const;
export type CallStatusCategory = (typeof CALL_STATUS_CATEGORIES)[number];

/** An entry of the call status catalogue: how the telephony platform reports a call's outcome. */
export interface CallStatus {
  id: number;
  code: string;
  title: string;
  category: CallStatusCategory;
  isCallback: boolean;
  /** A call with this status puts the number on a do-not-call list (see CallsService.recordCall). */
  isOptOut: boolean;
  /** What a call ending in it does to the lead's next call (an order may override it). */
  redial: RedialRule;
}
