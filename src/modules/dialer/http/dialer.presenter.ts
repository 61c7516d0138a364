import { ApiProperty } from '@nestjs/swagger';
import { isoDateTime } from '../../../common/dates';
import { CUSTOM_VALUES } from '../../../common/openapi/envelope.decorators';
import { NOT_CALLABLE_REASONS } from '../../leads/domain/callable';
import { currentUtcOffset } from '../../orders/domain/time-zone';
import type { ClaimedLead, Confirmation, ConfirmReason, DialerClaim } from '../domain/claim';

const TOKEN = { format: 'uuid', example: '3f0c2a8e-4b1d-4c9a-9f7e-2d1b0a6c5e4f' } as const;
const AT = { example: '2026-03-04T05:08:07+00:00' } as const;

export class ClaimedLeadView {
  @ApiProperty({ ...TOKEN, description: 'names this claim in release, confirm and call create' }) claimToken: string;
  @ApiProperty({ ...AT, description: 'the claim ends then unless released, confirmed away or ended by a call first' }) leaseExpiresAt: string;
  @ApiProperty({ type: 'integer' }) leadId: number;
  @ApiProperty({ type: 'integer' }) orderId: number;
  @ApiProperty({ example: '+79991234567', description: 'E.164' }) phone: string;
  @ApiProperty({ type: String, nullable: true, example: 'Europe/Moscow', description: 'IANA time zone; null = the fixed utcOffset' }) timeZone: string | null;
  @ApiProperty({ type: 'integer', description: "the lead's current UTC offset in whole hours" }) utcOffset: number;
  @ApiProperty({ type: 'integer', description: 'higher first' }) priority: number;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'which attempt this call is: the calls recorded for the lead so far + 1' }) attempt: number;
  @ApiProperty({ ...AT, description: 'when the call was planned (UTC)' }) planningCallDateTime: string;
  @ApiProperty({ description: "'' when none" }) name: string;
  @ApiProperty(CUSTOM_VALUES) customValues: Record<string, unknown>;
}

export class ClaimedLeadsView {
  @ApiProperty({ type: [ClaimedLeadView], description: 'in queue order: priority (higher first), planned time, id' }) list: ClaimedLeadView[];
}

export class ConfirmationView {
  @ApiProperty(TOKEN) claimToken: string;
  @ApiProperty({ description: 'false: do not dial; the claim has ended' }) dialable: boolean;
  @ApiProperty({
    enum: [...NOT_CALLABLE_REASONS, 'claim_ended'],
    isArray: true,
    description:
      'empty when dialable; else the reasons of GET /v2/lead/callable, or claim_ended (the token is no live claim: expired, released, ended by a call or unknown)',
  })
  reasons: ConfirmReason[];
}

export class ConfirmationsView {
  @ApiProperty({ type: [ConfirmationView], description: 'one per token, in the order sent' }) list: ConfirmationView[];
}

export class ReleasedView {
  @ApiProperty({ type: 'integer', description: 'live claims released (tokens that are no live claim are skipped)' }) count: number;
}

export class DialerClaimView {
  @ApiProperty(TOKEN) claimToken: string;
  @ApiProperty({ example: 'dialer-eu-1' }) dialerId: string;
  @ApiProperty({ type: 'integer' }) orderId: number;
  @ApiProperty({ type: 'integer' }) leadId: number;
  @ApiProperty(AT) claimedAt: string;
  @ApiProperty(AT) leaseExpiresAt: string;
}

export function presentClaimedLead(l: ClaimedLead): ClaimedLeadView {
  return {
    claimToken: l.claimToken,
    leaseExpiresAt: isoDateTime(l.leaseExpiresAt),
    leadId: l.leadId,
    orderId: l.orderId,
    phone: l.phone,
    timeZone: l.timeZone,
    utcOffset: currentUtcOffset(l),
    priority: l.priority,
    attempt: l.attemptCount + 1,
    planningCallDateTime: isoDateTime(l.plannedAt),
    name: l.name ?? '',
    customValues: l.customValues ?? {},
  };
}

export function presentConfirmation(c: Confirmation): ConfirmationView {
  return { claimToken: c.claimToken, dialable: c.dialable, reasons: c.reasons };
}

export function presentDialerClaim(c: DialerClaim): DialerClaimView {
  return {
    claimToken: c.claimToken,
    dialerId: c.dialerId,
    orderId: c.orderId,
    leadId: c.leadId,
    claimedAt: isoDateTime(c.claimedAt),
    leaseExpiresAt: isoDateTime(c.leaseExpiresAt),
  };
}
