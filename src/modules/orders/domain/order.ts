import type { FieldError } from '../../../common/domain-error';
import type { OrderRedialRule } from '../../dialing/domain/redial-rule';
import { CallSchedule, validateCallSchedule } from './call-schedule';
import { parseHolidayList } from './holidays';
import { isValidOrderCode } from './order-code';
import { parseTimeZone, timeZoneError } from './time-zone';

/** Enumerations of the Order resource (API.md). */
export const ORDER_STATUSES = ['success', 'secondary', 'info'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const CALL_RECORD_RULES = ['client_is_connected', 'agent_is_connected'] as const;
export type CallRecordRule = (typeof CALL_RECORD_RULES)[number];
export const SIP_ENDPOINT_USAGE_SCHEMES = ['random_default', 'random_without_repetition', 'even_loaded', 'even_loaded_daily'] as const;
export type SipEndpointUsageScheme = (typeof SIP_ENDPOINT_USAGE_SCHEMES)[number];
export const AGENT_LEAD_EDIT_MODES = ['during-call', 'always', 'never'] as const;
export type AgentLeadEditMode = (typeof AGENT_LEAD_EDIT_MODES)[number];

/**
 * Languages available on the platform, as the API spells them (`gb` is English). On input `en`
 * is accepted as another name of `gb` (what most clients send for English); responses say `gb`.
 */
export const LANGUAGE_CODES = ['ru', 'gb'] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];
const LANGUAGE_ALIASES: Record<string, LanguageCode> = { ru: 'ru', gb: 'gb', en: 'gb' };
export const LANGUAGE_INPUT_CODES = Object.keys(LANGUAGE_ALIASES);

export function parseLanguageCode(value: unknown): LanguageCode | null {
  return typeof value === 'string' ? (LANGUAGE_ALIASES[value.toLowerCase()] ?? null) : null;
}

/** Response form of a stored language: ru, gb or null. */
export function presentLanguageCode(value: string | null): LanguageCode | null {
  return value === null ? null : parseLanguageCode(value);
}

export const MIN_UTC_OFFSET = -12;
export const MAX_UTC_OFFSET = 14;
export const TRANSFER_NAME_MAX_LENGTH = 255;

export interface TransferNumber {
  number: string;
  /** language code -> name; empty when the number has no names */
  names: Partial<Record<LanguageCode, string>>;
}

/** What the HTTP layer hands over once types are checked (class-validator); everything optional. */
export interface OrderInput {
  code?: string;
  /** Extension: the client that ordered it; null = the call center's own (see order-client.ts for client keys). */
  clientId?: number | null;
  serviceTitle?: string;
  title?: string;
  status?: OrderStatus;
  callSchedule?: unknown;
  callHolidayOverrides?: unknown;
  autoDialingEnabled?: boolean;
  predictiveModeEnabled?: boolean;
  aiDefaultLanguage?: string | null;
  amdDetectionEnabled?: boolean;
  callRecordRule?: CallRecordRule;
  sipEndpointUsageScheme?: SipEndpointUsageScheme;
  agentUserIds?: number[];
  agentGroupIds?: number[];
  showLeadContactsToAgent?: boolean;
  callAttemptGroupId?: number;
  qualifiedLeadsPerDayLimit?: number | null;
  consentRequired?: boolean;
  maxAttemptsPerDay?: number | null;
  /** The whole list replaces the stored one. */
  redialRules?: OrderRedialRule[];
  dialWeight?: number;
  callScenarioId?: number;
  leadTransformEnabled?: boolean;
  speechRecognitionEnabled?: boolean;
  ignoreLeadTimezone?: boolean;
  sipEndpointIds?: number[];
  customValues?: unknown;
  agentLeadCreationIsAllowed?: boolean;
  agentLeadEditMode?: AgentLeadEditMode;
  autoProcessCall?: boolean;
  transferNumbers?: { number: string; names?: unknown }[];
  defaultUtcOffset?: number;
  /** Extension: IANA zone of the order; null = none (its `defaultUtcOffset` applies). */
  defaultTimeZone?: string | null;
}

/** Normalised changes: only the keys that were sent are present. customValues stays raw (checked against the database). */
export interface OrderChanges extends Omit<OrderInput, 'callSchedule' | 'callHolidayOverrides' | 'aiDefaultLanguage' | 'transferNumbers'> {
  callSchedule?: CallSchedule;
  /** yyyy-mm-dd, sorted, unique */
  callHolidayOverrides?: string[];
  aiDefaultLanguage?: LanguageCode | null;
  transferNumbers?: TransferNumber[];
}

type Result<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** First occurrence of each id, in the order sent. */
export function uniqueIds(ids: readonly number[]): number[] {
  return [...new Set(ids)];
}

function parseNames(input: unknown, field: string, errors: FieldError[]): TransferNumber['names'] {
  // Absent, null, {} and [] (an empty PHP map) all mean "no names".
  if (input === undefined || input === null || (Array.isArray(input) && input.length === 0)) return {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    errors.push({ field, message: 'must be an object of language code to name' });
    return {};
  }
  const names: TransferNumber['names'] = {};
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const lang = parseLanguageCode(key);
    if (!lang) errors.push({ field: `${field}.${key}`, message: `unknown language code (use one of: ${LANGUAGE_INPUT_CODES.join(', ')})` });
    else if (typeof value !== 'string' || value.trim() === '' || value.length > TRANSFER_NAME_MAX_LENGTH) {
      errors.push({ field: `${field}.${key}`, message: `must be a non-empty string of at most ${TRANSFER_NAME_MAX_LENGTH} characters` });
    } else names[lang] = value;
  }
  return names;
}

/**
 * The order rules that need no database: code format, schedule, holidays, language, transfer
 * number names, de-duplicated id lists. Field types were checked at the edge. Returns every
 * error found (one per field) or the normalised changes.
 */
export function normaliseOrderInput(input: OrderInput): Result<OrderChanges> {
  const errors: FieldError[] = [];
  const { callSchedule, callHolidayOverrides, aiDefaultLanguage, transferNumbers, ...rest } = input;
  const out: OrderChanges = { ...rest };
  for (const key of Object.keys(out) as (keyof OrderChanges)[]) if (out[key] === undefined) delete out[key];

  if (input.code !== undefined && !isValidOrderCode(input.code)) {
    errors.push({ field: 'code', message: 'must be 1-64 characters a-z, 0-9, - or _' });
  }
  if (callSchedule !== undefined) {
    const r = validateCallSchedule(callSchedule);
    if (r.ok) out.callSchedule = r.value;
    else errors.push({ field: 'callSchedule', message: r.message });
  }
  if (callHolidayOverrides !== undefined) {
    const r = parseHolidayList(callHolidayOverrides);
    if (r.ok) out.callHolidayOverrides = r.value;
    else errors.push({ field: 'callHolidayOverrides', message: r.message });
  }
  if (aiDefaultLanguage !== undefined) {
    if (aiDefaultLanguage === null) out.aiDefaultLanguage = null;
    else {
      const lang = parseLanguageCode(aiDefaultLanguage);
      if (lang) out.aiDefaultLanguage = lang;
      else errors.push({ field: 'aiDefaultLanguage', message: `must be one of: ${LANGUAGE_INPUT_CODES.join(', ')} (en means gb)` });
    }
  }
  if (transferNumbers !== undefined) {
    out.transferNumbers = transferNumbers.map((t, i) => ({ number: t.number, names: parseNames(t.names, `transferNumbers.${i}.names`, errors) }));
  }
  if (input.defaultTimeZone !== undefined && input.defaultTimeZone !== null) {
    const zone = parseTimeZone(input.defaultTimeZone);
    if (zone) out.defaultTimeZone = zone;
    else errors.push(timeZoneError('defaultTimeZone'));
  }
  const ruled = input.redialRules?.map((r) => r.statusId) ?? [];
  const twice = ruled.filter((id, i) => ruled.indexOf(id) !== i);
  if (twice.length) errors.push({ field: 'redialRules', message: `one rule per statusId (given twice: ${uniqueIds(twice).join(', ')})` });
  for (const key of ['agentUserIds', 'agentGroupIds', 'sipEndpointIds'] as const) {
    const ids = out[key];
    if (ids) out[key] = uniqueIds(ids);
  }
  return errors.length ? { ok: false, errors } : { ok: true, value: out };
}

/** References of an order to other resources, as ids to check for existence. */
export interface OrderReferences {
  agentUserIds: number[];
  agentGroupIds: number[];
  sipEndpointIds: number[];
  callAttemptGroupId: number[];
  callScenarioId: number[];
  clientId: number[];
}

export type ReferenceField = keyof OrderReferences;
export const REFERENCE_FIELDS: ReferenceField[] = ['agentUserIds', 'agentGroupIds', 'sipEndpointIds', 'callAttemptGroupId', 'callScenarioId', 'clientId'];
const SINGLE_REFERENCES: ReadonlySet<ReferenceField> = new Set(['callAttemptGroupId', 'callScenarioId', 'clientId']);

export function referencesOf(
  changes: Pick<OrderInput, 'agentUserIds' | 'agentGroupIds' | 'sipEndpointIds' | 'callAttemptGroupId' | 'callScenarioId' | 'clientId'>,
): OrderReferences {
  // null (no scenario, the call center's own order) refers to nothing.
  const one = (v: number | null | undefined) => (v === undefined || v === null ? [] : [v]);
  return {
    agentUserIds: uniqueIds(changes.agentUserIds ?? []),
    agentGroupIds: uniqueIds(changes.agentGroupIds ?? []),
    sipEndpointIds: uniqueIds(changes.sipEndpointIds ?? []),
    callAttemptGroupId: one(changes.callAttemptGroupId),
    callScenarioId: one(changes.callScenarioId),
    clientId: one(changes.clientId),
  };
}

/** One error per reference field naming the ids that do not exist. */
export function missingReferenceErrors(requested: OrderReferences, existing: OrderReferences): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of REFERENCE_FIELDS) {
    const found = new Set(existing[field]);
    const missing = requested[field].filter((id) => !found.has(id));
    if (missing.length === 0) continue;
    errors.push({ field, message: SINGLE_REFERENCES.has(field) ? `unknown id: ${missing[0]}` : `unknown ids: ${missing.join(', ')}` });
  }
  return errors;
}
