import { all, arrayOf, Check, describeValue, either, isPlainObject, oneOf, shape, shapeErrors, Spec } from './shape-check';

/**
 * The resources of API.md as shape specs: exactly the fields API.md lists (plus the extensions the
 * README documents), each with exactly the JSON type API.md's tables give.
 */

export const SUCCESS_ENVELOPE: Spec = { success: oneOf(true), message: oneOf(''), data: (v, p) => (v === undefined ? [`${p}: missing`] : []) };
export const LIST_WRAPPER: Spec = { list: 'array', next: 'int', total: 'int' };
export const ID_ONLY: Spec = { id: 'int' };

const callScheduleDay = either('empty[]', arrayOf('hhmm', { length: 2 }));

const transferNumber = shape({
  number: (v, p) => (typeof v === 'string' && v.length > 0 && !/\s/.test(v) ? [] : [`${p}: expected a number without spaces, got ${describeValue(v)}`]),
  // names: [] when none, else a map of language code to name.
  names: either('empty[]', (v, p) =>
    isPlainObject(v) && Object.keys(v).length > 0 && Object.values(v).every((x) => typeof x === 'string')
      ? []
      : [`${p}: expected a non-empty map of strings, got ${describeValue(v)}`],
  ),
});

const nonEmptyMap: Check = (v, p) => (isPlainObject(v) && Object.keys(v).length > 0 ? [] : [`${p}: expected a non-empty map, got ${describeValue(v)}`]);
const customValueKeys: Check = (v, p) =>
  isPlainObject(v)
    ? Object.keys(v)
        .filter((k) => !/^[1-9]\d*$/.test(k))
        .map((k) => `${p}: key ${k} is not a custom field id`)
    : [];

export function orderSpec(form: 'detail' | 'list'): Spec {
  return {
    id: 'int',
    code: all('string', (v, p) => (/^[a-z0-9_-]+$/.test(v as string) ? [] : [`${p}: bad code ${describeValue(v)}`])),
    // Extension: the client that ordered it, null for the call center's own.
    clientId: 'int|null',
    serviceTitle: 'string',
    title: 'string',
    callSchedule: arrayOf(callScheduleDay, { length: 7 }),
    callHolidayOverrides: 'date[]',
    autoDialingEnabled: 'bool',
    predictiveModeEnabled: 'bool',
    aiDefaultLanguage: oneOf('ru', 'gb', null),
    amdDetectionEnabled: 'bool',
    callRecordRule: oneOf('client_is_connected', 'agent_is_connected'),
    sipEndpointUsageScheme: oneOf('random_default', 'random_without_repetition', 'even_loaded', 'even_loaded_daily'),
    agentUserIds: 'int[]',
    agentGroupIds: 'int[]',
    showLeadContactsToAgent: 'bool',
    callAttemptGroupId: 'int',
    qualifiedLeadsPerDayLimit: 'int|null',
    consentRequired: 'bool',
    maxAttemptsPerDay: 'int|null',
    redialRules: arrayOf(shape({ statusId: 'int', afterMinutes: 'int|null', maxAttempts: 'int|null', final: 'bool' })),
    dialWeight: 'int',
    // API.md: int; README documents `null` until a scenario is set.
    callScenarioId: 'int',
    leadTransformEnabled: 'bool',
    status: oneOf('success', 'secondary', 'info'),
    speechRecognitionEnabled: 'bool',
    ignoreLeadTimezone: 'bool',
    sipEndpointIds: all('int[]', (v, p) => ((v as unknown[]).length > 0 ? [] : [`${p}: empty`])),
    // Detail: always a map; list: a map, or [] when there are none.
    customValues: form === 'detail' ? all('object', customValueKeys) : either('empty[]', all(nonEmptyMap, customValueKeys)),
    agentLeadCreationIsAllowed: 'bool',
    agentLeadEditMode: oneOf('during-call', 'always', 'never'),
    autoProcessCall: 'bool',
    transferNumbers: arrayOf(transferNumber),
    // Extension documented in the README.
    defaultUtcOffset: 'int',
    // Extension: IANA zone or null.
    defaultTimeZone: 'string|null',
    createdAt: 'iso',
    updatedAt: 'iso',
  };
}

const LEAD_SOURCES = [
  'organic',
  'non-organic',
  'search-a.ads',
  'social-a.ads',
  'social-b.ads',
  'video-a.ads',
  'search-b.direct',
  'social-c.ads',
  'messenger-a.ads',
];

export function leadV2Spec(form: 'detail' | 'list'): Spec {
  return {
    id: 'int',
    name: 'string',
    phone: all('string', (v, p) => (/^\+[1-9]\d{6,14}$/.test(v as string) ? [] : [`${p}: not E.164 with +: ${describeValue(v)}`])),
    sourceComment: 'string',
    ip: 'string',
    externalIdCrmA: 'string',
    externalIdCrmB: 'string',
    externalIdCrmC: 'string',
    externalIdCrmD: 'string',
    statusId: 'int',
    leadType: oneOf('straight', 'selection'),
    createMethod: 'string',
    source: oneOf(...LEAD_SOURCES),
    isSecondary: 'bool|null',
    ...(form === 'list' ? { previousLeadId: 'int|null', nextLeadId: 'int|null' } : {}),
    // A string (ISO 8601 per PRODUCT.md); "" when no call is planned, like every string field the lead lacks.
    planningCallDateTime: 'iso|""',
    // Extension: the dialing decision's hold, or null.
    dialingHold: either('null', shape(DIALING_HOLD)),
    priority: 'int',
    utcOffset: 'int',
    // Extension: IANA zone or null.
    timeZone: 'string|null',
    createdAt: 'iso',
    updatedAt: 'iso',
    orderId: 'int',
    orderCode: 'string',
    socialAId: 'string',
    socialBLogin: 'string',
    messengerUserName: 'string',
    messengerPhone: 'string',
    adCampaignId: 'string|null',
    customValues: all('object', customValueKeys),
    consent: either('null', shape(CONSENT)),
  };
}

const DIALING_HOLD: Spec = {
  reasons: all(arrayOf(oneOf('dnc', 'no_consent', 'daily_attempt_cap')), (v, p) => ((v as unknown[]).length > 0 ? [] : [`${p}: expected at least one reason`])),
  since: 'iso',
};

const CONSENT: Spec = {
  givenAt: 'iso',
  source: oneOf('web_form', 'phone_call', 'sms', 'email', 'paper', 'other'),
  evidenceUrl: 'string|null',
  token: 'string|null',
  text: 'string|null',
};

export const LEAD_V1: Spec = {
  ID: 'int',
  UF_NAME: 'string',
  UF_PHONE: 'string',
  UF_QUIZ_LOG: 'string',
  UF_USER_IP: 'string',
  UF_CAMPAIGN_ID: 'string',
  UF_ADDITIONAL_PARAMS: 'object|string',
  UF_EXTERNAL_ID: 'string',
  UF_STATUS: 'string',
  UF_LEAD_TYPE: oneOf('straight', 'selection'),
  UF_CREATE_METHOD: 'string',
  UF_CITY: 'string|null',
  UF_FAIL_ORDERS: 'array|null',
  UF_OBJECTS: 'string|null',
  UF_IS_SECONDARY: 'bool|null',
  UF_PREVIOUS_LEAD: 'int|null',
  UF_NEXT_LEAD: 'int|null',
  UF_CALL_DATE_TIME: 'int',
  UF_CALL_PRIORITY: 'int',
  UF_CLIENT_UTC_OFFSET: 'int',
  UF_PREPARE_IS_FINISHED: 'int',
  // API.md: string; the README documents ISO 8601 like v2.
  UF_DATE_CREATE: 'iso',
  UF_DATE_UPDATE: 'iso',
  UF_ORDER: 'int',
  UF_SELECTION_TYPE: 'string',
  socialAId: 'string',
  socialBLogin: 'string',
  messengerUserName: 'string',
  messengerPhone: 'string',
};

export const CALL: Spec = {
  id: 'int',
  sipEndpointId: 'int',
  finishInitiator: oneOf('agent', 'client', 'system', null),
  direction: oneOf('incoming', 'outgoing'),
  leadId: 'int',
  userId: 'int',
  orderId: 'int',
  statusId: 'int',
  totalDurationSeconds: 'int',
  waitTimeDurationSeconds: 'int',
  talkTimeDurationSeconds: 'int',
  isPredictive: 'bool',
  clientPhone: all('string', (v, p) => (/^[1-9]\d{6,14}$/.test(v as string) ? [] : [`${p}: expected digits without +, got ${describeValue(v)}`])),
  hasRecords: 'bool',
  createdAt: 'iso',
};

const ACCESS_GROUPS = ['client', 'call-center', 'call-center-senior', 'arbitration', 'moderator', 'admin'];

export const USER: Spec = {
  id: 'int',
  name: 'string|null',
  lastName: 'string|null',
  email: 'string',
  isActive: 'bool',
  accessGroup: oneOf(...ACCESS_GROUPS, ''),
  webRtcIsEnabled: 'bool',
  interfaceLanguageCode: oneOf('ru', 'gb'),
  languageSkillsCode: arrayOf(oneOf('ru', 'gb')),
  autoAnswer: oneOf(-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
  phoneMode: oneOf('default', 'outgoing-only', 'incoming-only', 'predictive'),
  avatar: all('string', (v, p) => (/^https?:\/\//.test(v as string) ? [] : [`${p}: not a URL: ${describeValue(v)}`])),
  telegramNotificationsEnabled: 'bool',
  telegramChatId: 'string|null',
  telegramNotificationsPriority: oneOf(null, 'urgent'),
  emailNotificationsEnabled: 'bool',
  emailNotificationsPriority: oneOf(null, 'urgent'),
  lastLoginAt: 'sqldt|null',
  lastActivityAt: 'sqldt|null',
  createdAt: 'iso',
};

const AGENT_GROUP_NAMES = shape({ ru: 'string', gb: 'string' });

export const AGENT_GROUP_DETAIL: Spec = {
  id: 'int',
  names: AGENT_GROUP_NAMES,
  agentIds: 'int[]',
  createdBy: 'int',
  updatedBy: 'int',
  createdAt: 'shortdt',
  updatedAt: 'shortdt',
};

export const AGENT_GROUP_LIST_ITEM: Spec = {
  id: 'int',
  names: AGENT_GROUP_NAMES,
  agentIds: 'int[]',
  createdAt: 'iso',
  updatedAt: 'iso',
};

export const CUSTOM_FIELD_TYPES = ['string', 'int', 'float', 'date', 'datetime', 'bool', 'select', 'multiselect'];
export const CUSTOM_FIELD: Spec = {
  id: 'int',
  title: 'string',
  type: oneOf(...CUSTOM_FIELD_TYPES),
  essence: oneOf('leads', 'orders'),
  params: arrayOf(shape({ code: 'string', sort: 'int', title: 'string' })),
  sort: 'int',
};

const HEALTH_DATA: Spec = { executionTime: 'float', reasonPhrase: 'string' };
const MQ_CONSUMER = shape({
  queue_name: 'string',
  success: 'bool',
  // backlog: extension documented in the README.
  data: shape({ current_consumers_count: 'int', needle_consumers_count: 'int', backlog: 'int' }),
});

export function healthComponentErrors(key: string, c: unknown): string[] {
  const path = `data.${key}`;
  const errors = shapeErrors(c, { success: 'bool', message: 'string', data: 'object' }, path);
  if (errors.length) return errors;
  const data = (c as { data: unknown }).data;
  const spec: Spec = key === 'serviceMqHub' ? { ...HEALTH_DATA, consumers: arrayOf(MQ_CONSUMER) } : HEALTH_DATA;
  return shapeErrors(data, spec, `${path}.data`, ['reasonPhrase']);
}
