import { isoDateTime } from '../../../common/dates';
import { normaliseSchedule } from '../domain/call-schedule';
import { formatHoliday } from '../domain/holidays';
import { presentLanguageCode } from '../domain/order';
import type { OrderRecord } from '../persistence/orders.repository';

/** Empty maps are `[]` where API.md says so (PHP's empty array). */
const mapOrEmptyArray = (m: Record<string, unknown>) => (Object.keys(m).length ? m : []);

/**
 * The Order object of API.md. `shape` differs in one place only: customValues is always a map
 * in detail and `[]` in lists when empty.
 */
export function presentOrder(o: OrderRecord, shape: 'detail' | 'list') {
  return {
    id: o.id,
    code: o.code,
    serviceTitle: o.serviceTitle,
    title: o.title,
    callSchedule: normaliseSchedule(o.callSchedule),
    callHolidayOverrides: o.callHolidayOverrides.map(formatHoliday),
    autoDialingEnabled: o.autoDialingEnabled,
    predictiveModeEnabled: o.predictiveModeEnabled,
    aiDefaultLanguage: presentLanguageCode(o.aiDefaultLanguage),
    amdDetectionEnabled: o.amdDetectionEnabled,
    callRecordRule: o.callRecordRule,
    sipEndpointUsageScheme: o.sipEndpointUsageScheme,
    agentUserIds: o.agentUserIds,
    agentGroupIds: o.agentGroupIds,
    showLeadContactsToAgent: o.showLeadContactsToAgent,
    callAttemptGroupId: o.callAttemptGroupId,
    qualifiedLeadsPerDayLimit: o.qualifiedLeadsPerDayLimit,
    // API.md types it int (not "int or null" like qualifiedLeadsPerDayLimit): 0 = no scenario.
    callScenarioId: o.callScenarioId ?? 0,
    leadTransformEnabled: o.leadTransformEnabled,
    status: o.status,
    speechRecognitionEnabled: o.speechRecognitionEnabled,
    ignoreLeadTimezone: o.ignoreLeadTimezone,
    sipEndpointIds: o.sipEndpointIds,
    customValues: shape === 'detail' ? o.customValues : mapOrEmptyArray(o.customValues),
    agentLeadCreationIsAllowed: o.agentLeadCreationIsAllowed,
    agentLeadEditMode: o.agentLeadEditMode,
    autoProcessCall: o.autoProcessCall,
    transferNumbers: o.transferNumbers.map((t) => ({ number: t.number, names: mapOrEmptyArray(t.names) })),
    defaultUtcOffset: o.defaultUtcOffset,
    createdAt: isoDateTime(o.createdAt),
    updatedAt: isoDateTime(o.updatedAt),
  };
}

export type OrderView = ReturnType<typeof presentOrder>;
