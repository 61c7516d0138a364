import type { CallRow } from '../../calls/domain/call';
import type { Lead, LeadType } from '../../leads/domain/lead';
import { snapshotDate } from './event';

/** A row as the triggers store it: `to_jsonb(row)`, column names as keys, bigints as text. */
export type RowSnapshot = Record<string, unknown>;

/** A text column (or a bigint written as text) of the snapshot. */
const str = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));
const num = (v: unknown): number => Number(v);

/** The lead domain shape of a `lead` row snapshot; `orderCode` is looked up apart (the row has the order id). */
export function leadFromSnapshot(row: RowSnapshot, orderCode: string): Lead {
  return {
    id: num(row.id),
    orderId: num(row.order_id),
    orderCode,
    name: str(row.name),
    phone: String(row.phone),
    sourceComment: str(row.source_comment),
    ip: str(row.ip),
    externalIdCrmA: str(row.external_id_crm_a),
    externalIdCrmB: str(row.external_id_crm_b),
    externalIdCrmC: str(row.external_id_crm_c),
    externalIdCrmD: str(row.external_id_crm_d),
    statusId: num(row.status_id),
    leadType: row.lead_type as LeadType,
    createMethod: String(row.create_method),
    source: String(row.source),
    isSecondary: row.is_secondary === true,
    previousLeadId: row.previous_lead_id === null || row.previous_lead_id === undefined ? null : num(row.previous_lead_id),
    nextLeadId: row.next_lead_id === null || row.next_lead_id === undefined ? null : num(row.next_lead_id),
    planningCallAt: snapshotDate(row.planning_call_at),
    priority: num(row.priority),
    utcOffset: num(row.utc_offset),
    timeZone: str(row.time_zone),
    socialAId: str(row.social_a_id),
    socialBLogin: str(row.social_b_login),
    messengerUserName: str(row.messenger_user_name),
    messengerPhone: str(row.messenger_phone),
    adCampaignId: str(row.ad_campaign_id),
    customValues: (row.custom_values as Record<string, unknown> | null) ?? {},
    selectionType: str(row.selection_type),
    city: str(row.city),
    additionalParams: row.additional_params ?? null,
    createdAt: snapshotDate(row.created_at) ?? new Date(0),
    updatedAt: snapshotDate(row.updated_at) ?? new Date(0),
  };
}

/** The call shape of a `call` row snapshot. */
export function callFromSnapshot(row: RowSnapshot): CallRow {
  return {
    id: num(row.id),
    orderId: num(row.order_id),
    leadId: num(row.lead_id),
    userId: row.user_id === null || row.user_id === undefined ? null : num(row.user_id),
    sipEndpointId: num(row.sip_endpoint_id),
    statusId: num(row.status_id),
    finishInitiator: str(row.finish_initiator),
    direction: String(row.direction),
    totalDurationSeconds: num(row.total_duration_seconds),
    waitTimeDurationSeconds: num(row.wait_time_duration_seconds),
    talkTimeDurationSeconds: num(row.talk_time_duration_seconds),
    isPredictive: row.is_predictive === true,
    clientPhone: String(row.client_phone),
    hasRecords: row.has_records === true,
    createdAt: snapshotDate(row.created_at) ?? new Date(0),
  };
}
