import { checkLeadFields, leadUpdate, normaliseMessengerPhone } from './lead-changes';
import { LeadStatus } from './lead-status';

const STATUSES: LeadStatus[] = [
  { id: 1, code: 'new', title: 'New', category: 'in-progress', isDefault: true },
  { id: 10, code: 'qualified', title: 'Qualified', category: 'qualified', isDefault: false },
];

describe('checkLeadFields (shared by create and update)', () => {
  it('normalises the fields sent and leaves the others out', () => {
    expect(checkLeadFields({ phone: '375291234567', socialAId: '007' }, { statuses: STATUSES, creating: false })).toEqual({
      ok: true,
      value: { phone: { e164: '+375291234567', country: 'BY' }, socialAId: '7' },
    });
    expect(checkLeadFields({}, { statuses: STATUSES, creating: false })).toEqual({ ok: true, value: {} });
  });

  it('gives a new lead the default status, or an in-progress one it asks for, and refuses others', () => {
    const created = checkLeadFields({ phone: '375291234567' }, { statuses: STATUSES, creating: true });
    expect(created.ok && created.value.status?.id).toBe(1);
    const qualified = checkLeadFields({ phone: '375291234567', statusId: 10 }, { statuses: STATUSES, creating: true });
    expect(qualified).toEqual({ ok: false, errors: [{ field: 'statusId', message: expect.stringContaining('in-progress') }] });
  });

  it('lets an update set any known status, and names an unknown one', () => {
    const updated = checkLeadFields({ statusId: 10 }, { statuses: STATUSES, creating: false });
    expect(updated.ok && updated.value.status?.code).toBe('qualified');
    expect(checkLeadFields({ statusId: 99 }, { statuses: STATUSES, creating: false })).toEqual({
      ok: false,
      errors: [{ field: 'statusId', message: 'unknown lead status 99' }],
    });
  });

  it('reports every bad field at once, with the same messages for create and update', () => {
    const input = { phone: '12', statusId: 99, adCampaignId: 'x'.repeat(65), socialAId: 'abc' };
    const update = checkLeadFields(input, { statuses: STATUSES, creating: false });
    const create = checkLeadFields(input, { statuses: STATUSES, creating: true });
    expect(update.ok ? [] : update.errors.map((e) => e.field)).toEqual(['phone', 'statusId', 'adCampaignId', 'socialAId']);
    expect(create).toEqual(update);
  });
});

describe('leadUpdate', () => {
  it('changes only what is sent, normalised', () => {
    const r = leadUpdate(
      { name: 'Ann', phone: '+375 29 123-45-67', messengerPhone: ' not a phone ', timeZone: 'europe/berlin', customValues: { 1: 'x' } },
      { statuses: STATUSES, customValues: { 1: 'x' } },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const sent = Object.fromEntries(Object.entries(r.value.changes).filter(([, v]) => v !== undefined));
    expect(sent).toEqual({ name: 'Ann', phone: '+375291234567', messengerPhone: 'not a phone', customValues: { 1: 'x' } });
    expect(r.value).toMatchObject({ phoneCountry: 'BY', timeZone: 'Europe/Berlin', status: undefined, utcOffset: undefined });
  });

  it('keeps null (clear the zone) apart from not sent', () => {
    const cleared = leadUpdate({ timeZone: null, utcOffset: 5 }, { statuses: STATUSES });
    expect(cleared.ok && [cleared.value.timeZone, cleared.value.utcOffset]).toEqual([null, 5]);
    const untouched = leadUpdate({ name: 'x' }, { statuses: STATUSES });
    expect(untouched.ok && untouched.value.timeZone).toBeUndefined();
  });

  it('adds a bad zone name to the shared field errors', () => {
    const r = leadUpdate({ phone: 'nope', timeZone: 'Mars/Olympus' }, { statuses: STATUSES });
    expect(r.ok ? [] : r.errors.map((e) => e.field)).toEqual(['phone', 'timeZone']);
  });

  it('normalises a valid messenger phone and keeps any other as sent', () => {
    expect(normaliseMessengerPhone('79161234567')).toBe('+79161234567');
    expect(normaliseMessengerPhone(' @ann ')).toBe('@ann');
    expect(normaliseMessengerPhone(undefined)).toBeNull();
  });
});
