import type { FieldError } from '../../../common/domain-error';

export const CONSENT_SOURCES = ['web_form', 'phone_call', 'sms', 'email', 'paper', 'other'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];
export const CONSENT_EVIDENCE_URL_MAX = 2048;
export const CONSENT_TOKEN_MAX = 255;
export const CONSENT_TEXT_MAX = 4000;

/** A lead's consent to be called, as stored (`givenAt` ISO 8601 UTC) and returned. */
export interface Consent {
  givenAt: string;
  source: ConsentSource;
  evidenceUrl: string | null;
  token: string | null;
  text: string | null;
}

/** Consent as a client sends it. */
export interface ConsentInput {
  givenAt: string;
  source: string;
  evidenceUrl?: string;
  token?: string;
  text?: string;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/** Consent checked against its rules (`field` prefixes the error fields); every error at once. */
export function checkConsent(input: ConsentInput, now: Date, field = 'consent'): { ok: true; value: Consent } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const givenAt = ISO_DATE_TIME.test(input.givenAt) ? new Date(input.givenAt) : null;
  if (!givenAt || Number.isNaN(givenAt.getTime())) errors.push({ field: `${field}.givenAt`, message: 'must be an ISO 8601 date-time' });
  else if (givenAt > now) errors.push({ field: `${field}.givenAt`, message: 'must not be in the future' });
  if (!(CONSENT_SOURCES as readonly string[]).includes(input.source)) {
    errors.push({ field: `${field}.source`, message: `must be one of ${CONSENT_SOURCES.join(', ')}` });
  }
  const url = input.evidenceUrl;
  if (url !== undefined && (url.length > CONSENT_EVIDENCE_URL_MAX || !isHttpsUrl(url))) {
    errors.push({ field: `${field}.evidenceUrl`, message: `must be an https: URL of at most ${CONSENT_EVIDENCE_URL_MAX} characters` });
  }
  if (input.token !== undefined && input.token.length > CONSENT_TOKEN_MAX) {
    errors.push({ field: `${field}.token`, message: `must be at most ${CONSENT_TOKEN_MAX} characters` });
  }
  if (input.text !== undefined && input.text.length > CONSENT_TEXT_MAX) {
    errors.push({ field: `${field}.text`, message: `must be at most ${CONSENT_TEXT_MAX} characters` });
  }
  if (errors.length || !givenAt) return { ok: false, errors };
  const value: Consent = {
    givenAt: givenAt.toISOString(),
    source: input.source as ConsentSource,
    evidenceUrl: url ?? null,
    token: input.token ?? null,
    text: input.text ?? null,
  };
  return { ok: true, value };
}

/** Whether a lead may be dialled as far as consent goes: an order that requires consent needs it given. */
export function consentAllowsCalls(order: { consentRequired: boolean }, consent: Consent | null | undefined): boolean {
  return !order.consentRequired || (consent !== null && consent !== undefined);
}

/**
 * A lead's next call after its consent is sent on an update: undefined when it stays. Only an
 * order requiring consent cares: withdrawing stops the lead, giving it where none was plans it.
 */
export function planningAfterConsent(
  order: { consentRequired: boolean },
  before: Consent | null,
  after: Consent | null,
  plan: () => Date | null,
): Date | null | undefined {
  if (!order.consentRequired) return undefined;
  if (after === null) return null;
  return before === null ? plan() : undefined;
}
