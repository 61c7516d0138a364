import type { DialingHold, HoldReason } from '../../dialing/domain/dialing-decision';
import type { DialStop } from '../../dialing/domain/redial-rule';
import type { Consent, ConsentInput } from './consent';

/** The lead as the domain sees it: one shape, presented as v2 or v1 by the HTTP layer. */

export const LEAD_TYPES = ['straight', 'selection'] as const;
export type LeadType = (typeof LEAD_TYPES)[number];

export const LEAD_SOURCES = [
  'organic',
  'non-organic',
  'search-a.ads',
  'social-a.ads',
  'social-b.ads',
  'video-a.ads',
  'search-b.direct',
  'social-c.ads',
  'messenger-a.ads',
] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];

export const AD_CAMPAIGN_ID_MAX = 64;
/** How leads made through this API are marked (`createMethod`). */
export const API_CREATE_METHOD = 'API';

export interface Lead {
  id: number;
  orderId: number;
  orderCode: string;
  name: string | null;
  phone: string;
  sourceComment: string | null;
  ip: string | null;
  externalIdCrmA: string | null;
  externalIdCrmB: string | null;
  externalIdCrmC: string | null;
  externalIdCrmD: string | null;
  statusId: number;
  leadType: LeadType;
  createMethod: string;
  source: string;
  isSecondary: boolean;
  previousLeadId: number | null;
  nextLeadId: number | null;
  planningCallAt: Date | null;
  priority: number;
  utcOffset: number;
  /** IANA zone (extension), or null: the lead lives at the fixed `utcOffset`. */
  timeZone?: string | null;
  socialAId: string | null;
  socialBLogin: string | null;
  messengerUserName: string | null;
  messengerPhone: string | null;
  adCampaignId: string | null;
  customValues: Record<string, unknown>;
  selectionType: string | null;
  city: string | null;
  additionalParams: unknown;
  consent: Consent | null;
  /** The daily attempt cap holds the lead until then (its next local day); null: not capped. */
  dailyCapUntil: Date | null;
  /** The dialing decision's hold, as stored (see dialing/domain/dialing-decision.ts); null: not held. */
  dialingHold: HoldReason[] | null;
  dialingHoldSince: Date | null;
  /** The call outcome rule that stopped the lead's dialling (final, or its attempts in that outcome); null otherwise. */
  dialStop: DialStop | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The dialing decision's hold a lead stores, as one value (null: not held). */
export function storedHold(lead: Pick<Lead, 'dialingHold' | 'dialingHoldSince'>): DialingHold | null {
  return lead.dialingHold?.length && lead.dialingHoldSince ? { reasons: lead.dialingHold, since: lead.dialingHoldSince } : null;
}

/** Fields a client may set on create (v2 names; v1 maps onto them). */
export interface CreateLeadInput {
  leadType: LeadType;
  phone: string;
  orderId: number;
  orderCode: string;
  name?: string;
  sourceComment?: string;
  ip?: string;
  externalIdCrmA?: string;
  externalIdCrmB?: string;
  externalIdCrmC?: string;
  externalIdCrmD?: string;
  priority?: number;
  utcOffset?: number;
  timeZone?: string | null;
  statusId?: number;
  source?: LeadSource;
  adCampaignId?: string | null;
  customValues?: unknown;
  messengerUserName?: string;
  messengerPhone?: string;
  messengerId?: number;
  socialAId?: string | number;
  socialBLogin?: string;
  consent?: ConsentInput | null;
}

/** Fields a client may change; absent = unchanged. */
export interface UpdateLeadInput {
  name?: string;
  phone?: string;
  sourceComment?: string;
  ip?: string;
  externalIdCrmA?: string;
  externalIdCrmB?: string;
  externalIdCrmC?: string;
  externalIdCrmD?: string;
  statusId?: number;
  priority?: number;
  utcOffset?: number;
  /** A name sets the zone; null clears it (the lead then lives at its `utcOffset`). */
  timeZone?: string | null;
  source?: LeadSource;
  adCampaignId?: string | null;
  customValues?: unknown;
  messengerUserName?: string;
  messengerPhone?: string;
  socialAId?: string | number;
  socialBLogin?: string;
  /** v1 `call_timestamp`: sets the next call time directly. */
  planningCallAt?: Date;
  /** Consent given; null withdraws it. */
  consent?: ConsentInput | null;
}

const BIGINT_MAX = 9_223_372_036_854_775_807n;

/**
 * `socialAId`: a positive integer id, sent as a number or a numeric string; stored canonical
 * (no leading zeros). Null when invalid.
 */
export function normaliseSocialAId(value: unknown): string | null {
  let digits: string;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value <= 0) return null;
    digits = String(value);
  } else if (typeof value === 'string' && /^\s*[0-9]{1,19}\s*$/.test(value)) {
    digits = value.trim();
  } else {
    return null;
  }
  const n = BigInt(digits);
  return n > 0n && n <= BIGINT_MAX ? n.toString() : null;
}

/** `sourceComment` / `quiz_log`: plain text or a JSON document; a JSON value sent unencoded is stored as its text. */
export function sourceCommentText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The lead as a recorded call needs it (the calls module asks LeadCallAttemptsService for it, in the call's transaction). */
/** What a recorded call writes to its lead before the dialing decision: its attempt count and the moment the redial is wanted (null: dialling stops; absent: unchanged). */
export interface CallAttemptWrite {
  attemptCount: number;
  dialAfter?: Date | null;
  /** With dialAfter null: the outcome rule that stopped the dialling. */
  stop?: DialStop | null;
}

/** What a lead list filters on (counters and page queries in persistence/ read it). */
export interface LeadFilter {
  orderIds?: number[];
  statusIds?: number[];
  /** Inclusive bounds. */
  createdFrom?: Date;
  createdTo?: Date;
}
