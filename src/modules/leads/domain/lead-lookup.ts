import type { LeadFilter } from './lead';

/** The lookup keys of a lead list and of an upsert (exact values; the phone already normalised). */
export type LookupKey = 'phone' | 'externalIdCrmA' | 'externalIdCrmB' | 'externalIdCrmC' | 'externalIdCrmD';
export const LOOKUP_KEYS: LookupKey[] = ['phone', 'externalIdCrmA', 'externalIdCrmB', 'externalIdCrmC', 'externalIdCrmD'];

/** A list filter with at least one lookup key. */
export interface LeadLookupFilter extends LeadFilter {
  keys: Partial<Record<LookupKey, string>>;
}
