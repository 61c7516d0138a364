import type { FieldError } from '../../../common/domain-error';
import { parseTimeZone, timeZoneError } from '../../orders/domain/time-zone';
import { checkConsent, type Consent } from './consent';
import { AD_CAMPAIGN_ID_MAX, normaliseSocialAId, UpdateLeadInput } from './lead';
import { LeadStatus, StatusCheck, statusForCreate, statusForUpdate } from './lead-status';
import { normalisePhone } from './phone';

/** The fields whose rules a lead's create and update share. */
export interface LeadFieldsInput {
  phone?: string;
  socialAId?: string | number;
  adCampaignId?: string | null;
  statusId?: number;
}

/** Those fields checked and normalised; a key is present when its field was sent (a new lead always has a status). */
export interface CheckedLeadFields {
  phone?: { e164: string; country: string | null };
  socialAId?: string;
  status?: LeadStatus;
}

/**
 * The field rules of a lead's create and update, on the fields sent: the phone (E.164, its country kept for the zone), the status
 * (a new lead an in-progress or the default one; an update any known status), the ad campaign id's length and socialAId. Every error at once.
 */
export function checkLeadFields(
  input: LeadFieldsInput,
  ctx: { statuses: readonly LeadStatus[]; creating: boolean },
): { ok: true; value: CheckedLeadFields } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const value: CheckedLeadFields = {};
  if (input.phone !== undefined) {
    const phone = normalisePhone(input.phone);
    if (phone.ok) value.phone = { e164: phone.e164, country: phone.country };
    else errors.push({ field: 'phone', message: phone.message });
  }
  const status: StatusCheck | undefined = ctx.creating
    ? statusForCreate(ctx.statuses, input.statusId)
    : input.statusId === undefined
      ? undefined
      : statusForUpdate(ctx.statuses, input.statusId);
  if (status?.ok) value.status = status.status;
  else if (status) errors.push({ field: 'statusId', message: status.message });
  if (input.adCampaignId && input.adCampaignId.length > AD_CAMPAIGN_ID_MAX) {
    errors.push({ field: 'adCampaignId', message: `must be at most ${AD_CAMPAIGN_ID_MAX} characters` });
  }
  if (input.socialAId !== undefined) {
    const social = normaliseSocialAId(input.socialAId);
    if (social === null) errors.push({ field: 'socialAId', message: 'must be a positive integer (number or numeric string)' });
    else value.socialAId = social;
  }
  return errors.length ? { ok: false, errors } : { ok: true, value };
}

/** Column changes an update makes whatever the lead holds (status, zone and planning depend on it). */
export type LeadFieldChanges = Omit<UpdateLeadInput, 'statusId' | 'utcOffset' | 'timeZone' | 'socialAId' | 'customValues' | 'consent' | 'planningCallAt'> & {
  /** An explicit next call (v1 `call_timestamp`): the earliest moment the lead is wanted; the dialing decision still bounds it. */
  dialAfter?: Date;
  /** Consent given (checked), null withdrawn, undefined unchanged. */
  consent?: Consent | null;
  socialAId?: string;
  customValues?: Record<string, unknown>;
};

/** A checked partial update, before the transaction compares it with the stored lead. */
export interface LeadUpdate {
  changes: LeadFieldChanges;
  /** The new phone's country when the phone is sent (a single-zone country can set the zone). */
  phoneCountry: string | null;
  /** The status sent, from the catalogue. */
  status?: LeadStatus;
  /** A zone name sent (canonical), null to clear it, undefined when not sent. */
  timeZone?: string | null;
  utcOffset?: number;
}

/**
 * A partial update checked: only the fields sent change; the shared field rules
 * (checkLeadFields), the messenger phone normalised when valid, the zone name parsed.
 * `customValues` is the normalised map when custom values were sent.
 */
export function leadUpdate(
  input: UpdateLeadInput,
  ctx: { statuses: readonly LeadStatus[]; customValues?: Record<string, unknown>; now?: Date },
): { ok: true; value: LeadUpdate } | { ok: false; errors: FieldError[] } {
  const fields = checkLeadFields(input, { statuses: ctx.statuses, creating: false });
  const errors: FieldError[] = fields.ok ? [] : [...fields.errors];
  const consent = input.consent ? checkConsent(input.consent, ctx.now ?? new Date()) : null;
  if (consent && !consent.ok) errors.push(...consent.errors);
  const timeZone = input.timeZone === undefined || input.timeZone === null ? input.timeZone : parseTimeZone(input.timeZone);
  if (timeZone === null && input.timeZone !== null) errors.push(timeZoneError('timeZone'));
  if (!fields.ok || errors.length || (consent && !consent.ok)) return { ok: false, errors };
  const checked = fields.value;
  const changes: LeadFieldChanges = {
    name: input.name,
    phone: checked.phone?.e164,
    sourceComment: input.sourceComment,
    ip: input.ip,
    externalIdCrmA: input.externalIdCrmA,
    externalIdCrmB: input.externalIdCrmB,
    externalIdCrmC: input.externalIdCrmC,
    externalIdCrmD: input.externalIdCrmD,
    priority: input.priority,
    source: input.source,
    adCampaignId: input.adCampaignId,
    messengerUserName: input.messengerUserName,
    messengerPhone: normaliseMessengerPhone(input.messengerPhone) ?? undefined,
    socialAId: checked.socialAId,
    socialBLogin: input.socialBLogin,
    dialAfter: input.planningCallAt,
    customValues: ctx.customValues,
    consent: input.consent === undefined ? undefined : (consent?.value ?? null),
  };
  return { ok: true, value: { changes, phoneCountry: checked.phone?.country ?? null, status: checked.status, timeZone, utcOffset: input.utcOffset } };
}

/** A messenger phone is normalised when it is a valid number, else kept as sent ("E.164 recommended"). */
export function normaliseMessengerPhone(value: string | undefined): string | null {
  if (value === undefined) return null;
  const parsed = normalisePhone(value);
  return parsed.ok ? parsed.e164 : value.trim();
}
