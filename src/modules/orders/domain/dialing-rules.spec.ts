import { changesDialingRules } from './dialing-rules';
import type { OrderRecord } from './order-record';

const before = {
  consentRequired: false,
  clientId: null,
  maxAttemptsPerDay: 3,
  callSchedule: Array.from({ length: 7 }, () => ['09:00', '18:00']),
  callHolidayOverrides: ['2026-12-31'],
  defaultTimeZone: null,
  defaultUtcOffset: 3,
  ignoreLeadTimezone: false,
  title: 'Old',
} as unknown as OrderRecord;

describe('changesDialingRules', () => {
  it('is true for a changed rule the decision reads, or the client', () => {
    expect(changesDialingRules(before, { maxAttemptsPerDay: 1 })).toBe(true);
    expect(changesDialingRules(before, { maxAttemptsPerDay: null })).toBe(true);
    expect(changesDialingRules(before, { clientId: 2 })).toBe(true);
    expect(changesDialingRules(before, { callSchedule: Array.from({ length: 7 }, () => ['10:00', '18:00'] as [string, string]) })).toBe(true);
  });

  it('is false for the same values and for fields the decision does not read', () => {
    expect(changesDialingRules(before, { maxAttemptsPerDay: 3, consentRequired: false, callHolidayOverrides: ['2026-12-31'] })).toBe(false);
    expect(changesDialingRules(before, { title: 'New' })).toBe(false);
  });
});
