import { isoDateTime } from '../../../common/dates';
import type { Lead } from '../domain/lead';
import type { CallStatus, LeadStatus } from '../domain/lead-status';
import type { AsyncJobView } from '../leads.service';

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
    priority: lead.priority,
    utcOffset: lead.utcOffset,
    createdAt: isoDateTime(lead.createdAt),
    updatedAt: isoDateTime(lead.updatedAt),
    orderId: lead.orderId,
    orderCode: lead.orderCode,
    socialAId: lead.socialAId ?? '',
    socialBLogin: lead.socialBLogin ?? '',
    messengerUserName: lead.messengerUserName ?? '',
    messengerPhone: lead.messengerPhone ?? '',
    adCampaignId: lead.adCampaignId,
    customValues: lead.customValues ?? {},
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

export function presentCallStatus(s: CallStatus) {
  return { id: s.id, code: s.code, title: s.title, category: s.category, isCallback: s.isCallback };
}
