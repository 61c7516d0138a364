import type { NotCallableReason } from '../../leads/domain/callable';
import type { QueuedLead } from './claim-share';

/** A live claim: a lead a dialer holds until its lease expires, the claim is released or confirmed away, or a call is recorded. */
export interface DialerClaim {
  claimToken: string;
  dialerId: string;
  orderId: number;
  leadId: number;
  claimedAt: Date;
  leaseExpiresAt: Date;
}

/** A due lead with what a dialer needs to call it. */
export interface DueLead extends QueuedLead {
  phone: string;
  name: string | null;
  timeZone: string | null;
  utcOffset: number;
  attemptCount: number;
  customValues: Record<string, unknown>;
}

export interface ClaimedLead extends DueLead {
  claimToken: string;
  leaseExpiresAt: Date;
}

/** What a claim asks for. */
export interface ClaimRequest {
  dialerId: string;
  limit: number;
  leaseSeconds: number;
  /** Absent: every order whose autodialing is on. */
  orderIds?: number[];
}

/** Why a confirmation refuses a token: the decision's reasons, or `claim_ended` (expired, released, ended by a call, unknown). */
export type ConfirmReason = NotCallableReason | 'claim_ended';

export interface Confirmation {
  claimToken: string;
  dialable: boolean;
  reasons: ConfirmReason[];
}

/** The limits of a claim's input (the DTOs and the docs read them). */
export const CLAIM_LIMITS = {
  dialerIdLength: 100,
  maxLimit: 500,
  minLeaseSeconds: 10,
  maxLeaseSeconds: 600,
  defaultLeaseSeconds: 120,
  maxTokens: 500,
  maxOrderIds: 500,
  maxRetryAfterSeconds: 7 * 24 * 3600,
} as const;

/**
 * Whether a recorded call may end its lead's claim: without a token it ends any claim of the lead; with one, only when the token is
 * the lead's live claim (else the call is refused: 409). `claim`: the lead's claim row, if it has one.
 */
export function callEndsClaim(token: string | null | undefined, claim: { live: boolean; token: string } | undefined): boolean {
  return token == null || (claim !== undefined && claim.live && claim.token === token);
}
