import { ApiProperty } from '@nestjs/swagger';
import { isoDateTime } from '../../../common/dates';
import { localIso, NOT_CALLABLE_REASONS } from '../domain/callable';
import { wholeHourOffset } from '../../orders/domain/time-zone';
import type { LeadCallability } from '../lead-callable.service';

/** GET /v2/lead/callable/{leadId}/ (extension). */
export class LeadCallableView {
  @ApiProperty({ description: 'true exactly when reasons is empty' }) callableNow: boolean;
  @ApiProperty({ example: '2026-03-10T06:30:00+00:00', description: 'now' }) at: string;
  @ApiProperty({ example: '2026-03-10T12:00:00+05:30', description: "now in the lead's zone, with its offset" }) localTime: string;
  @ApiProperty({ type: String, nullable: true, example: 'Asia/Kolkata', description: "the lead's IANA zone; null = its fixed utcOffset" }) timeZone:
    string | null;
  @ApiProperty({ type: 'integer', example: 5, description: "the lead's current offset in whole hours, truncated toward zero (+5:30 gives 5)" })
  utcOffset: number;
  @ApiProperty({
    enum: NOT_CALLABLE_REASONS,
    isArray: true,
    description:
      'every reason that applies: no_schedule (all seven days off), day_off (today has no window), holiday (today, in the lead zone, ' +
      'is a holiday of the order), outside_hours, not_yet_due (inside hours, the planned call is later), dialing_stopped (no call ' +
      'planned), order_autodialing_disabled, qualified_limit_reached, no_consent (the order requires consent, the lead has none), ' +
      'daily_attempt_cap (the calls of its local day reached maxAttemptsPerDay: it waits for its next local day), ' +
      'dnc (a do-not-call entry covers the number: no call is planned)',
  })
  reasons: string[];
  @ApiProperty({ type: String, nullable: true, example: '2026-03-10T08:00:00+00:00', description: 'the next moment the lead may be called; null when none' })
  nextCallableAt: string | null;
}

export function presentLeadCallable(c: LeadCallability) {
  return {
    callableNow: c.callableNow,
    at: isoDateTime(c.at),
    localTime: localIso(c.at, c.zone),
    timeZone: c.lead.timeZone ?? null,
    utcOffset: c.lead.timeZone ? wholeHourOffset(c.zone, c.at) : c.lead.utcOffset,
    reasons: c.reasons,
    nextCallableAt: isoDateTime(c.nextCallableAt),
  };
}
