import type { FieldError } from '../../../common/domain-error';
import { decideDialing, type HoldReason } from '../../dialing/domain/dialing-decision';
import { API_CREATE_METHOD, CreateLeadInput, LeadSource, LeadType } from './lead';
import { checkLeadFields, normaliseMessengerPhone } from './lead-changes';
import type { LeadStatus } from './lead-status';
import { checkConsent, type Consent } from './consent';
import { resolveLeadTimeZone } from '../../orders/domain/time-zone';

import type { OrderSettings } from '../../orders/domain/order-settings';
export type { OrderSettings };

/** A validated lead ready to insert (links are decided in the transaction). */
export interface NewLead {
  orderId: number;
  phone: string;
  leadType: LeadType;
  statusId: number;
  name: string | null;
  sourceComment: string | null;
  ip: string | null;
  externalIdCrmA: string | null;
  externalIdCrmB: string | null;
  externalIdCrmC: string | null;
  externalIdCrmD: string | null;
  createMethod: string;
  source: LeadSource;
  /** The dialing decision's (decideDialing): the database may still hold the lead when a list covers its number (the lead trigger). */
  planningCallAt: Date | null;
  /** Wanted from its creation on. */
  dialAfter: Date | null;
  dialingHold: HoldReason[] | null;
  dialingHoldSince: Date | null;
  priority: number;
  utcOffset: number;
  /** IANA zone, or null: the fixed `utcOffset` (optional for callers that build leads by hand: null). */
  timeZone?: string | null;
  socialAId: string | null;
  socialBLogin: string | null;
  messengerUserName: string | null;
  messengerPhone: string | null;
  messengerId: number | null;
  adCampaignId: string | null;
  customValues: Record<string, unknown>;
  consent: Consent | null;
}

/** A new lead's dialing: the decision with no calls yet, wanted now; a list covering its number is the database's to apply. */
function newLeadDialing(order: OrderSettings, lead: { timeZone: string | null; utcOffset: number; consent: Consent | null }, now: Date) {
  const d = decideDialing({
    now,
    order,
    lead: { timeZone: lead.timeZone, utcOffset: lead.utcOffset, hasConsent: lead.consent !== null, dialAfter: now },
    dncListed: false,
    callStarts: [],
    previousHold: null,
  });
  return { planningCallAt: d.planningCallAt, dialAfter: now, dialingHold: d.hold?.reasons ?? null, dialingHoldSince: d.hold?.since ?? null };
}

/**
 * Applies the create rules that need no database beyond the order and the status catalogue:
 * the field rules shared with updates (checkLeadFields: phone, status, ad campaign id,
 * socialAId), order id/code agreement, time zone, planning. Returns every field error at once.
 */
export function buildNewLead(
  input: CreateLeadInput,
  ctx: { order: OrderSettings | null; statuses: readonly LeadStatus[]; customValues: Record<string, unknown>; now: Date },
): { ok: true; lead: NewLead } | { ok: false; errors: FieldError[] } {
  const fields = checkLeadFields(input, { statuses: ctx.statuses, creating: true });
  const errors: FieldError[] = fields.ok ? [] : [...fields.errors];
  const checked = fields.ok ? fields.value : {};

  const { order } = ctx;
  if (!order) errors.push({ field: 'orderId', message: `order ${input.orderId} does not exist` });
  else if (order.code !== input.orderCode) {
    errors.push({ field: 'orderCode', message: `names a different order than the order id ${input.orderId}` });
  }

  const zone = resolveLeadTimeZone({
    timeZone: input.timeZone,
    utcOffset: input.utcOffset,
    phoneCountry: checked.phone?.country ?? null,
    order: order ?? { defaultUtcOffset: 0 },
    now: ctx.now,
  });
  if (!zone.ok) errors.push(zone.error);
  const consent = input.consent ? checkConsent(input.consent, ctx.now) : null;
  if (consent && !consent.ok) errors.push(...consent.errors);
  const { phone, status } = checked;
  if (errors.length > 0 || !phone || !order || !status || !zone.ok) return { ok: false, errors };
  const given = consent?.ok ? consent.value : null;

  const { timeZone, utcOffset } = zone.value;
  return {
    ok: true,
    lead: {
      orderId: order.id,
      phone: phone.e164,
      leadType: input.leadType,
      statusId: status.id,
      name: input.name ?? null,
      sourceComment: input.sourceComment ?? null,
      ip: input.ip ?? null,
      externalIdCrmA: input.externalIdCrmA ?? null,
      externalIdCrmB: input.externalIdCrmB ?? null,
      externalIdCrmC: input.externalIdCrmC ?? null,
      externalIdCrmD: input.externalIdCrmD ?? null,
      createMethod: API_CREATE_METHOD,
      source: input.source ?? 'organic',
      ...newLeadDialing(order, { ...zone.value, consent: given }, ctx.now),
      priority: input.priority ?? 0,
      utcOffset,
      timeZone,
      socialAId: checked.socialAId ?? null,
      socialBLogin: input.socialBLogin ?? null,
      messengerUserName: input.messengerUserName ?? null,
      messengerPhone: normaliseMessengerPhone(input.messengerPhone),
      messengerId: input.messengerId ?? null,
      adCampaignId: input.adCampaignId ?? null,
      customValues: ctx.customValues,
      consent: given,
    },
  };
}
