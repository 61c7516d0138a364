import { ApiProperty } from '@nestjs/swagger';
import { CUSTOM_VALUES, mapOrEmptyArray as mapOrEmptyArraySchema } from '../../../common/openapi/envelope.decorators';
import { isoDateTime } from '../../../common/dates';
import { OrderRedialRuleView } from '../../dialing/http/redial-rule.dto';
import { normaliseSchedule } from '../domain/call-schedule';
import { formatHoliday } from '../domain/holidays';
import { AGENT_LEAD_EDIT_MODES, CALL_RECORD_RULES, LANGUAGE_CODES, ORDER_STATUSES, presentLanguageCode, SIP_ENDPOINT_USAGE_SCHEMES } from '../domain/order';
import type { OrderRecord } from '../domain/order-record';

/** Empty maps are `[]` where API.md says so (PHP's empty array). */
const mapOrEmptyArray = (m: Record<string, unknown>) => (Object.keys(m).length ? m : []);

const NAMES = { type: 'object', additionalProperties: { type: 'string' }, example: { ru: 'Отдел продаж', gb: 'Sales office' } } as const;

export class TransferNumberView {
  @ApiProperty({ example: '+74951234500' }) number: string;
  @ApiProperty({ ...mapOrEmptyArraySchema({ ...NAMES }), description: 'language code → name; [] when none' })
  names: Record<string, string> | never[];
}

/** The Order object of API.md (detail and list items). */
export class OrderView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ example: 'novostroyki-moskvy' }) code: string;
  @ApiProperty({ type: 'integer', nullable: true, example: null, description: "extension: the client that ordered it; null = the call center's own" })
  clientId: number | null;
  @ApiProperty() serviceTitle: string;
  @ApiProperty() title: string;
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'string' } },
    description: 'seven days from Monday: [from, to] in HH:mm, or [] for no calls that day',
    example: [['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['10:00', '18:00'], []],
  })
  callSchedule: string[][];
  @ApiProperty({ type: [String], example: ['01.01.2027'], description: 'dd.mm.yyyy' }) callHolidayOverrides: string[];
  @ApiProperty() autoDialingEnabled: boolean;
  @ApiProperty() predictiveModeEnabled: boolean;
  @ApiProperty({ type: String, nullable: true, enum: LANGUAGE_CODES, example: 'ru' }) aiDefaultLanguage: string | null;
  @ApiProperty() amdDetectionEnabled: boolean;
  @ApiProperty({ enum: CALL_RECORD_RULES, example: 'client_is_connected' }) callRecordRule: string;
  @ApiProperty({ enum: SIP_ENDPOINT_USAGE_SCHEMES, example: 'random_without_repetition' }) sipEndpointUsageScheme: string;
  @ApiProperty({ type: 'integer', isArray: true }) agentUserIds: number[];
  @ApiProperty({ type: 'integer', isArray: true }) agentGroupIds: number[];
  @ApiProperty() showLeadContactsToAgent: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) callAttemptGroupId: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) qualifiedLeadsPerDayLimit: number | null;
  @ApiProperty({ description: 'leads without consent are not dialled' }) consentRequired: boolean;
  @ApiProperty({ type: 'integer', nullable: true, minimum: 1, maximum: 50, description: 'calls per lead per local day; null = no cap' })
  maxAttemptsPerDay: number | null;
  @ApiProperty({ type: OrderRedialRuleView, isArray: true, description: "redial rules per call status, over the statuses' own" })
  redialRules: OrderRedialRuleView[];
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, description: "share of a dialer claim across orders, relative to the other orders' weights" })
  dialWeight: number;
  @ApiProperty({ type: 'integer', description: '0 = no scenario' }) callScenarioId: number;
  @ApiProperty() leadTransformEnabled: boolean;
  @ApiProperty({ enum: ORDER_STATUSES, example: 'success' }) status: string;
  @ApiProperty() speechRecognitionEnabled: boolean;
  @ApiProperty() ignoreLeadTimezone: boolean;
  @ApiProperty({ type: 'integer', isArray: true }) sipEndpointIds: number[];
  @ApiProperty({ ...CUSTOM_VALUES, description: 'custom field id → value' })
  customValues: Record<string, unknown> | never[];
  @ApiProperty() agentLeadCreationIsAllowed: boolean;
  @ApiProperty({ enum: AGENT_LEAD_EDIT_MODES, example: 'during-call' }) agentLeadEditMode: string;
  @ApiProperty() autoProcessCall: boolean;
  @ApiProperty({ type: [TransferNumberView] }) transferNumbers: TransferNumberView[];
  @ApiProperty({ type: 'integer', example: 3 }) defaultUtcOffset: number;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Europe/Moscow',
    description: "extension: IANA time zone of the order's day and of leads without a zone of their own; null = defaultUtcOffset",
  })
  defaultTimeZone: string | null;
  @ApiProperty({ example: '2026-03-04T05:06:07+00:00' }) createdAt: string;
  @ApiProperty({ example: '2026-03-04T05:06:07+00:00' }) updatedAt: string;
}

/**
 * The Order object of API.md. `shape` differs in one place only: customValues is always a map
 * in detail and `[]` in lists when empty.
 */
/** An order as the list shows it: customValues is [] when empty. */
export class OrderListItemView extends OrderView {
  @ApiProperty({ ...mapOrEmptyArraySchema(CUSTOM_VALUES), description: 'custom field id → value; [] when empty' })
  declare customValues: Record<string, unknown> | never[];
}

export function presentOrder(o: OrderRecord, shape: 'detail' | 'list') {
  return {
    id: o.id,
    code: o.code,
    // Order events stored before orders had clients carry none: those orders were the call center's own.
    clientId: o.clientId ?? null,
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
    consentRequired: o.consentRequired ?? false,
    maxAttemptsPerDay: o.maxAttemptsPerDay ?? null,
    redialRules: (o.redialRules ?? []).map((r) => ({ statusId: r.statusId, afterMinutes: r.afterMinutes, maxAttempts: r.maxAttempts, final: r.final })),
    dialWeight: o.dialWeight,
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
    defaultTimeZone: o.defaultTimeZone,
    createdAt: isoDateTime(o.createdAt),
    updatedAt: isoDateTime(o.updatedAt),
  };
}
