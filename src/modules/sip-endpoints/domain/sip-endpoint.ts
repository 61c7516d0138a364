import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** A virtual number the platform dials from (orders list them in sipEndpointIds). */
export interface SipEndpoint {
  id: number;
  /** E.164 with the leading +. */
  number: string;
  title: string;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const MAX_TITLE_LENGTH = 255;
export const MAX_NUMBER_INPUT_LENGTH = 32;

/**
 * Normalises a virtual number to E.164 with '+'. Input is international, with or without the
 * leading '+', and may carry spaces, dashes or parentheses. Null when it is not a valid number
 * (checked against full numbering-plan metadata, not just length).
 */
export function normaliseSipNumber(input: string): string | null {
  if (typeof input !== 'string' || input.length > MAX_NUMBER_INPUT_LENGTH) return null;
  const trimmed = input.trim();
  if (!/^\+?[0-9()\-\s.]+$/.test(trimmed)) return null;
  const phone = parsePhoneNumberFromString(trimmed.startsWith('+') ? trimmed : `+${trimmed}`);
  return phone && phone.isValid() ? phone.number : null;
}
