import { ApiProperty, type SchemaObject } from '@nestjs/swagger';
import { isoDateTime } from '../../../common/dates';
import { CUSTOM_VALUES, FieldErrorView } from '../../../common/openapi/envelope.decorators';
import { CONSENT_SOURCES, type Consent } from '../domain/consent';
import { LEAD_SOURCES, LEAD_TYPES, type Lead, storedHold } from '../domain/lead';
import { type DialingHold, HOLD_REASONS, type HoldReason, holdAt } from '../../dialing/domain/dialing-decision';
import { currentUtcOffset } from '../../orders/domain/time-zone';
import type { LeadStatus } from '../domain/lead-status';
import type { AsyncJobView } from '../lead-create-jobs.service';

const ISO = '2026-03-04T05:06:07+00:00';

/** A lead's consent as returned. */
export class ConsentView {
  @ApiProperty({ example: ISO }) givenAt: string;
  @ApiProperty({ enum: CONSENT_SOURCES }) source: string;
  @ApiProperty({ type: String, nullable: true }) evidenceUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) token: string | null;
  @ApiProperty({ type: String, nullable: true }) text: string | null;
}

/** Why a lead is held from dialling: the dialing decision's stored reasons. */
export class DialingHoldView {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: [...HOLD_REASONS] },
    minItems: 1,
    example: ['dnc'],
    description:
      'every reason that holds the lead: dnc (a do-not-call entry lists its number), no_consent (its order requires consent it lacks), ' +
      "daily_attempt_cap (its calls of today reached the order's maxAttemptsPerDay: its call is planned in its next local day's window)",
  })
  reasons: HoldReason[];
  @ApiProperty({ type: 'string', format: 'date-time', example: ISO, description: 'since when it has been held' }) since: string;
}

/** The v2 Lead of API.md (detail form; list items add previousLeadId/nextLeadId). */
export class LeadV2View {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ description: "'' when none" }) name: string;
  @ApiProperty({ example: '+79991234567', description: 'E.164' }) phone: string;
  @ApiProperty() sourceComment: string;
  @ApiProperty() ip: string;
  @ApiProperty() externalIdCrmA: string;
  @ApiProperty() externalIdCrmB: string;
  @ApiProperty() externalIdCrmC: string;
  @ApiProperty() externalIdCrmD: string;
  @ApiProperty({ type: 'integer' }) statusId: number;
  @ApiProperty({ enum: LEAD_TYPES, example: 'straight' }) leadType: string;
  @ApiProperty({ example: 'API' }) createMethod: string;
  @ApiProperty({ enum: LEAD_SOURCES, example: 'non-organic' }) source: string;
  @ApiProperty() isSecondary: boolean;
  @ApiProperty({
    anyOf: [{ type: 'string', format: 'date-time' }, { type: 'string', const: '' } as SchemaObject],
    example: ISO,
    description: "'' when no call is planned",
  })
  planningCallDateTime: string;
  @ApiProperty({
    type: DialingHoldView,
    nullable: true,
    description:
      "extension: why the lead is held from dialling (planningCallDateTime is then '' or, under the daily cap, its next day's window); null when nothing holds it. " +
      'A lead.updated event that changes it lists dialingHold in changed.',
  })
  dialingHold: DialingHoldView | null;
  @ApiProperty({ type: 'integer' }) priority: number;
  @ApiProperty({
    type: 'integer',
    example: 3,
    description:
      "the lead's current UTC offset in whole hours: for a lead with a timeZone, that zone's offset now (DST included), " +
      'truncated toward zero for fractional zones (Asia/Kolkata +5:30 gives 5, America/St_Johns -3:30 gives -3)',
  })
  utcOffset: number;
  @ApiProperty({ type: String, nullable: true, example: 'Asia/Kolkata', description: 'extension: IANA time zone; null = the fixed utcOffset' })
  timeZone: string | null;
  @ApiProperty({ example: ISO }) createdAt: string;
  @ApiProperty({ example: ISO }) updatedAt: string;
  @ApiProperty({ type: 'integer' }) orderId: number;
  @ApiProperty() orderCode: string;
  @ApiProperty() socialAId: string;
  @ApiProperty() socialBLogin: string;
  @ApiProperty() messengerUserName: string;
  @ApiProperty() messengerPhone: string;
  @ApiProperty({ type: String, nullable: true }) adCampaignId: string | null;
  @ApiProperty(CUSTOM_VALUES) customValues: Record<string, unknown>;
  @ApiProperty({ type: ConsentView, nullable: true, description: 'consent to be called; null: none' }) consent: ConsentView | null;
}

export class LeadV2ListItemView extends LeadV2View {
  @ApiProperty({ type: 'integer', nullable: true, description: 'the earlier lead this one duplicates' }) previousLeadId: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'the later lead that duplicates this one' }) nextLeadId: number | null;
}

/** The v1 lead (UF_ fields) of API.md. */
export class LeadV1View {
  @ApiProperty({ type: 'integer' }) ID: number;
  @ApiProperty() UF_NAME: string;
  @ApiProperty() UF_PHONE: string;
  @ApiProperty() UF_QUIZ_LOG: string;
  @ApiProperty() UF_USER_IP: string;
  @ApiProperty() UF_CAMPAIGN_ID: string;
  @ApiProperty({ type: String, description: "'': kept for v1 clients; no route of this service writes it" })
  UF_ADDITIONAL_PARAMS: string;
  @ApiProperty() UF_EXTERNAL_ID: string;
  @ApiProperty({ example: '1', description: 'the status id as a string' }) UF_STATUS: string;
  @ApiProperty() UF_LEAD_TYPE: string;
  @ApiProperty() UF_CREATE_METHOD: string;
  @ApiProperty({ type: String, nullable: true }) UF_CITY: string | null;
  @ApiProperty({ type: 'array', items: { type: 'string' }, nullable: true, description: 'always null' }) UF_FAIL_ORDERS: string[] | null;
  @ApiProperty({ type: String, nullable: true, description: 'always null' }) UF_OBJECTS: string | null;
  @ApiProperty({ type: Boolean, nullable: true }) UF_IS_SECONDARY: boolean | null;
  @ApiProperty({ type: 'integer', nullable: true }) UF_PREVIOUS_LEAD: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) UF_NEXT_LEAD: number | null;
  @ApiProperty({ type: 'integer', description: 'Unix seconds; 0 when no call is planned' }) UF_CALL_DATE_TIME: number;
  @ApiProperty({ type: 'integer' }) UF_CALL_PRIORITY: number;
  @ApiProperty({ type: 'integer' }) UF_CLIENT_UTC_OFFSET: number;
  @ApiProperty({ type: 'integer', example: 1 }) UF_PREPARE_IS_FINISHED: number;
  @ApiProperty({ example: ISO }) UF_DATE_CREATE: string;
  @ApiProperty({ example: ISO }) UF_DATE_UPDATE: string;
  @ApiProperty({ type: 'integer' }) UF_ORDER: number;
  @ApiProperty() UF_SELECTION_TYPE: string;
  @ApiProperty() socialAId: string;
  @ApiProperty() socialBLogin: string;
  @ApiProperty() messengerUserName: string;
  @ApiProperty() messengerPhone: string;
}

/** State of an asynchronous lead creation. */
export class AsyncLeadJobView {
  @ApiProperty({ format: 'uuid' }) jobId: string;
  @ApiProperty({ enum: ['queued', 'done', 'failed'] }) status: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'the new lead once done' }) leadId: number | null;
  @ApiProperty({ type: [FieldErrorView], description: 'why it failed; [] otherwise' }) errors: FieldErrorView[];
  @ApiProperty({ example: ISO }) createdAt: string;
  @ApiProperty({ type: String, nullable: true, example: ISO }) finishedAt: string | null;
}

export class LeadStatusView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ example: 'new' }) code: string;
  @ApiProperty({ example: 'New' }) title: string;
  @ApiProperty({ enum: ['in-progress', 'qualified', 'rejected', 'closed'] }) category: string;
  @ApiProperty() isDefault: boolean;
}

/**
 * The v2 Lead shape of API.md, field by field. Fields typed "string" there are "" when the lead
 * has no value; the ones typed "or null" are null. `previousLeadId`/`nextLeadId` are list-only.
 * `planningCallDateTime` is typed "string": "" when no call is planned (dialing stopped).
 */
function leadV2(lead: Lead, withLinks: boolean) {
  return {
    id: lead.id,
    name: lead.name ?? '',
    phone: lead.phone,
    sourceComment: lead.sourceComment ?? '',
    ip: lead.ip ?? '',
    externalIdCrmA: lead.externalIdCrmA ?? '',
    externalIdCrmB: lead.externalIdCrmB ?? '',
    externalIdCrmC: lead.externalIdCrmC ?? '',
    externalIdCrmD: lead.externalIdCrmD ?? '',
    statusId: lead.statusId,
    leadType: lead.leadType,
    createMethod: lead.createMethod,
    source: lead.source,
    isSecondary: lead.isSecondary,
    ...(withLinks ? { previousLeadId: lead.previousLeadId, nextLeadId: lead.nextLeadId } : {}),
    planningCallDateTime: isoDateTime(lead.planningCallAt) ?? '',
    dialingHold: presentHold(holdAt(storedHold(lead), lead.dailyCapUntil, new Date())),
    priority: lead.priority,
    utcOffset: currentUtcOffset(lead),
    timeZone: lead.timeZone ?? null,
    createdAt: isoDateTime(lead.createdAt),
    updatedAt: isoDateTime(lead.updatedAt),
    orderId: lead.orderId,
    orderCode: lead.orderCode,
    ...presentLeadSocialFields(lead),
    adCampaignId: lead.adCampaignId,
    customValues: lead.customValues ?? {},
    consent: presentConsent(lead.consent),
  };
}

function presentHold(h: DialingHold | null): DialingHoldView | null {
  return h ? { reasons: h.reasons, since: isoDateTime(h.since) } : null;
}

function presentConsent(c: Consent | null | undefined): ConsentView | null {
  return c ? { givenAt: isoDateTime(new Date(c.givenAt)), source: c.source, evidenceUrl: c.evidenceUrl, token: c.token, text: c.text } : null;
}

/** The social and messenger fields, named alike in v1 and v2: "" where the lead has none. */
export function presentLeadSocialFields(lead: Lead) {
  return {
    socialAId: lead.socialAId ?? '',
    socialBLogin: lead.socialBLogin ?? '',
    messengerUserName: lead.messengerUserName ?? '',
    messengerPhone: lead.messengerPhone ?? '',
  };
}

/** Detail: without the duplicate links. */
export const presentLeadV2 = (lead: Lead) => leadV2(lead, false);

/** List items: with `previousLeadId` and `nextLeadId`. */
export const presentLeadV2ListItem = (lead: Lead) => leadV2(lead, true);

export function presentAsyncJob(job: AsyncJobView) {
  return {
    jobId: job.jobId,
    status: job.status,
    leadId: job.leadId,
    errors: job.errors,
    createdAt: isoDateTime(job.createdAt),
    finishedAt: isoDateTime(job.finishedAt),
  };
}

export function presentLeadStatus(s: LeadStatus) {
  return { id: s.id, code: s.code, title: s.title, category: s.category, isDefault: s.isDefault };
}
