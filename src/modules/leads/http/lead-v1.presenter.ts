import type { FieldError } from '../../../common/domain-error';
import { currentUtcOffset } from '../../orders/domain/time-zone';
import { isoDateTime, unixSeconds } from '../../../common/dates';
import { CreateLeadInput, Lead, LeadType, sourceCommentText, UpdateLeadInput } from '../domain/lead';
import { presentLeadSocialFields } from './lead.presenter';

/**
 * The v1 lead interface is another spelling of the same lead: snake_case input, `UF_` output.
 * These functions translate; every rule stays in the domain service.
 */

export interface V1CreateFields {
  lead_type: LeadType;
  client_phone: string;
  order_id: number;
  order_code: string;
  messengerId?: number;
  socialAId?: string | number;
  socialBLogin?: string;
  client_name?: string;
  quiz_log?: string | object;
  campaign_id?: string;
  external_id?: string;
  priority?: number;
  utc_offset?: number;
}

export interface V1UpdateFields {
  client_name?: string;
  client_phone?: string;
  quiz_log?: string | object;
  campaign_id?: string;
  external_id?: string;
  status?: number;
  /** Unix seconds. */
  call_timestamp?: number;
  priority?: number;
  utc_offset?: number;
  messengerUserName?: string;
  messengerPhone?: string;
  socialAId?: string | number;
  socialBLogin?: string;
}

/** v2 (domain) field name -> v1 field name, for error messages in the caller's vocabulary. */
const V1_NAMES: Record<string, string> = {
  leadType: 'lead_type',
  phone: 'client_phone',
  orderId: 'order_id',
  orderCode: 'order_code',
  name: 'client_name',
  sourceComment: 'quiz_log',
  adCampaignId: 'campaign_id',
  externalIdCrmA: 'external_id',
  statusId: 'status',
  planningCallAt: 'call_timestamp',
  utcOffset: 'utc_offset',
};

export function toV1FieldErrors(errors: readonly FieldError[]): FieldError[] {
  return errors.map((e) => {
    const [head, ...rest] = e.field.split('.');
    const renamed = V1_NAMES[head];
    return renamed ? { field: [renamed, ...rest].join('.'), message: e.message } : e;
  });
}

const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export function fromV1Create(b: V1CreateFields): CreateLeadInput {
  return defined({
    leadType: b.lead_type,
    phone: b.client_phone,
    orderId: b.order_id,
    orderCode: b.order_code,
    messengerId: b.messengerId,
    socialAId: b.socialAId,
    socialBLogin: b.socialBLogin,
    name: b.client_name,
    sourceComment: sourceCommentText(b.quiz_log),
    adCampaignId: b.campaign_id,
    externalIdCrmA: b.external_id,
    priority: b.priority,
    utcOffset: b.utc_offset,
  });
}

export function fromV1Update(b: V1UpdateFields): UpdateLeadInput {
  return defined({
    name: b.client_name,
    phone: b.client_phone,
    sourceComment: sourceCommentText(b.quiz_log),
    adCampaignId: b.campaign_id,
    externalIdCrmA: b.external_id,
    statusId: b.status,
    planningCallAt: b.call_timestamp === undefined ? undefined : new Date(b.call_timestamp * 1000),
    priority: b.priority,
    utcOffset: b.utc_offset,
    messengerUserName: b.messengerUserName,
    messengerPhone: b.messengerPhone,
    socialAId: b.socialAId,
    socialBLogin: b.socialBLogin,
  });
}

export interface V1LeadView {
  ID: number;
  UF_NAME: string;
  UF_PHONE: string;
  UF_QUIZ_LOG: string;
  UF_USER_IP: string;
  UF_CAMPAIGN_ID: string;
  UF_ADDITIONAL_PARAMS: unknown;
  UF_EXTERNAL_ID: string;
  UF_STATUS: string;
  UF_LEAD_TYPE: string;
  UF_CREATE_METHOD: string;
  UF_CITY: string | null;
  UF_FAIL_ORDERS: unknown[] | null;
  UF_OBJECTS: string | null;
  UF_IS_SECONDARY: boolean | null;
  UF_PREVIOUS_LEAD: number | null;
  UF_NEXT_LEAD: number | null;
  UF_CALL_DATE_TIME: number;
  UF_CALL_PRIORITY: number;
  UF_CLIENT_UTC_OFFSET: number;
  UF_PREPARE_IS_FINISHED: number;
  UF_DATE_CREATE: string;
  UF_DATE_UPDATE: string;
  UF_ORDER: number;
  UF_SELECTION_TYPE: string;
  socialAId: string;
  socialBLogin: string;
  messengerUserName: string;
  messengerPhone: string;
}

/** The v1 detail shape. Strings the lead does not have are "", as v1 clients expect strings there. */
export function toV1Detail(lead: Lead): V1LeadView {
  return {
    ID: lead.id,
    UF_NAME: lead.name ?? '',
    UF_PHONE: lead.phone,
    UF_QUIZ_LOG: lead.sourceComment ?? '',
    UF_USER_IP: lead.ip ?? '',
    UF_CAMPAIGN_ID: lead.adCampaignId ?? '',
    UF_ADDITIONAL_PARAMS: lead.additionalParams ?? '',
    UF_EXTERNAL_ID: lead.externalIdCrmA ?? '',
    UF_STATUS: String(lead.statusId),
    UF_LEAD_TYPE: lead.leadType,
    UF_CREATE_METHOD: lead.createMethod,
    UF_CITY: lead.city,
    UF_FAIL_ORDERS: null,
    UF_OBJECTS: null,
    UF_IS_SECONDARY: lead.isSecondary,
    UF_PREVIOUS_LEAD: lead.previousLeadId,
    UF_NEXT_LEAD: lead.nextLeadId,
    // API.md types it int: 0 when no call is planned (dialing stopped).
    UF_CALL_DATE_TIME: unixSeconds(lead.planningCallAt) ?? 0,
    UF_CALL_PRIORITY: lead.priority,
    UF_CLIENT_UTC_OFFSET: currentUtcOffset(lead),
    // Leads are prepared (normalised, planned) before they are stored: always finished.
    UF_PREPARE_IS_FINISHED: 1,
    UF_DATE_CREATE: isoDateTime(lead.createdAt),
    UF_DATE_UPDATE: isoDateTime(lead.updatedAt),
    UF_ORDER: lead.orderId,
    UF_SELECTION_TYPE: lead.selectionType ?? '',
    ...presentLeadSocialFields(lead),
  };
}
