import fc from 'fast-check';
import { buildNewLead, OrderSettings } from './new-lead';
import { LeadStatus } from './lead-status';
import { fromV1Create, fromV1Update, toV1Detail, toV1FieldErrors } from '../http/lead-v1.presenter';
import { Lead, normaliseSocialAId, sourceCommentText } from './lead';

const STATUSES: LeadStatus[] = [
  { id: 1, code: 'new', title: 'New', category: 'in-progress', isDefault: true },
  { id: 2, code: 'in-progress', title: 'In progress', category: 'in-progress', isDefault: false },
  { id: 10, code: 'qualified', title: 'Qualified', category: 'qualified', isDefault: false },
];
const ORDER: OrderSettings = {
  id: 7,
  clientId: null,
  code: 'demo',
  callSchedule: [['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], [], []],
  holidays: [],
  ignoreLeadTimezone: false,
  defaultUtcOffset: 3,
  qualifiedLeadsPerDayLimit: null,
  consentRequired: false,
  maxAttemptsPerDay: null,
  redialRules: [],
  callAttemptGroupId: null,
};
// Wednesday 2026-03-11 23:00Z
const NOW = new Date('2026-03-11T23:00:00Z');
const base = { leadType: 'straight' as const, phone: '375291234567', orderId: 7, orderCode: 'demo' };

describe('buildNewLead', () => {
  it('normalises, defaults and plans a valid lead', () => {
    const r = buildNewLead(base, { order: ORDER, statuses: STATUSES, customValues: {}, now: NOW });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.lead).toMatchObject({ phone: '+375291234567', statusId: 1, utcOffset: 3, source: 'organic', priority: 0, createMethod: 'API', orderId: 7 });
    // 02:00 Minsk on Thursday -> 09:00 Minsk = 06:00Z
    expect(r.lead.planningCallAt).toEqual(new Date('2026-03-12T06:00:00Z'));
  });

  it('plans in the order offset when the order ignores lead time zones', () => {
    const order = { ...ORDER, ignoreLeadTimezone: true, defaultUtcOffset: 0 };
    const r = buildNewLead({ ...base, utcOffset: 10 }, { order, statuses: STATUSES, customValues: {}, now: NOW });
    expect(r.ok && r.lead.utcOffset).toBe(10);
    expect(r.ok && r.lead.planningCallAt).toEqual(new Date('2026-03-12T09:00:00Z'));
  });

  it('stores consent and plans a lead of a consentRequired order only with it (property)', () => {
    const consent = { givenAt: '2026-03-01T10:00:00Z', source: 'paper' };
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), (required, given) => {
        const order = { ...ORDER, consentRequired: required };
        const r = buildNewLead({ ...base, consent: given ? consent : undefined }, { order, statuses: STATUSES, customValues: {}, now: NOW });
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        expect(r.lead.consent?.givenAt ?? null).toBe(given ? '2026-03-01T10:00:00.000Z' : null);
        expect(r.lead.planningCallAt === null).toBe(required && !given);
      }),
    );
    const future = buildNewLead(
      { ...base, consent: { givenAt: '2026-03-12T00:00:00Z', source: 'sms' } },
      { order: ORDER, statuses: STATUSES, customValues: {}, now: NOW },
    );
    expect(future.ok ? [] : future.errors.map((e) => e.field)).toEqual(['consent.givenAt']);
  });

  it('lists every problem at once', () => {
    const r = buildNewLead(
      { ...base, phone: '8916', orderCode: 'other', statusId: 10, adCampaignId: 'x'.repeat(65), socialAId: '0' },
      { order: ORDER, statuses: STATUSES, customValues: {}, now: NOW },
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.field).sort()).toEqual(['adCampaignId', 'orderCode', 'phone', 'socialAId', 'statusId']);
  });

  it('reports a missing order on orderId', () => {
    const r = buildNewLead(base, { order: null, statuses: STATUSES, customValues: {}, now: NOW });
    expect(!r.ok && r.errors).toEqual([{ field: 'orderId', message: 'order 7 does not exist' }]);
  });
});

describe('small normalisers', () => {
  it('socialAId: positive integers as number or numeric string', () => {
    expect(normaliseSocialAId(42)).toBe('42');
    expect(normaliseSocialAId('0042')).toBe('42');
    expect(normaliseSocialAId('9223372036854775807')).toBe('9223372036854775807');
    for (const bad of [0, -1, 1.5, '0', '', 'abc', '9223372036854775808', null, true]) expect(normaliseSocialAId(bad)).toBeNull();
  });
  it('sourceComment: text as is, JSON values as their text', () => {
    expect(sourceCommentText('hello')).toBe('hello');
    expect(sourceCommentText({ a: 1 })).toBe('{"a":1}');
    expect(sourceCommentText(undefined)).toBeUndefined();
  });
});

describe('v1 mapping', () => {
  it('maps v1 create and update fields onto the domain input', () => {
    expect(
      fromV1Create({
        lead_type: 'straight',
        client_phone: '79161234567',
        order_id: 1,
        order_code: 'a',
        client_name: 'N',
        quiz_log: 'q',
        campaign_id: 'c',
        external_id: 'e',
        priority: 2,
        utc_offset: 3,
        messengerId: 5,
        socialAId: '6',
        socialBLogin: 'b',
      }),
    ).toEqual({
      leadType: 'straight',
      phone: '79161234567',
      orderId: 1,
      orderCode: 'a',
      name: 'N',
      sourceComment: 'q',
      adCampaignId: 'c',
      externalIdCrmA: 'e',
      priority: 2,
      utcOffset: 3,
      messengerId: 5,
      socialAId: '6',
      socialBLogin: 'b',
    });
    expect(fromV1Update({ status: 10, call_timestamp: 1772600767 })).toEqual({ statusId: 10, planningCallAt: new Date(1772600767000) });
    expect(fromV1Update({})).toEqual({});
  });

  it('renames field errors into v1 names', () => {
    expect(
      toV1FieldErrors([
        { field: 'phone', message: 'm' },
        { field: 'customValues.3', message: 'x' },
        { field: 'orderCode', message: 'c' },
      ]),
    ).toEqual([
      { field: 'client_phone', message: 'm' },
      { field: 'customValues.3', message: 'x' },
      { field: 'order_code', message: 'c' },
    ]);
  });

  it('presents the UF_ shape', () => {
    const lead: Lead = {
      id: 5,
      orderId: 7,
      orderCode: 'demo',
      name: null,
      phone: '+79161234567',
      sourceComment: null,
      ip: null,
      externalIdCrmA: 'A1',
      externalIdCrmB: null,
      externalIdCrmC: null,
      externalIdCrmD: null,
      statusId: 2,
      leadType: 'straight',
      createMethod: 'API',
      source: 'organic',
      isSecondary: true,
      previousLeadId: 4,
      nextLeadId: null,
      planningCallAt: new Date('2026-03-04T05:06:07Z'),
      priority: 1,
      utcOffset: 3,
      socialAId: null,
      socialBLogin: null,
      messengerUserName: null,
      messengerPhone: null,
      adCampaignId: null,
      customValues: {},
      selectionType: null,
      city: null,
      additionalParams: null,
      consent: null,
      dailyCapUntil: null,
      dialingHold: null,
      dialingHoldSince: null,
      dialStop: null,
      createdAt: new Date('2026-03-01T00:00:00Z'),
      updatedAt: new Date('2026-03-02T00:00:00Z'),
    };
    expect(toV1Detail(lead)).toMatchObject({
      ID: 5,
      UF_NAME: '',
      UF_PHONE: '+79161234567',
      UF_STATUS: '2',
      UF_EXTERNAL_ID: 'A1',
      UF_IS_SECONDARY: true,
      UF_PREVIOUS_LEAD: 4,
      UF_NEXT_LEAD: null,
      UF_CALL_DATE_TIME: 1772600767,
      UF_ORDER: 7,
      UF_DATE_CREATE: '2026-03-01T00:00:00+00:00',
      UF_PREPARE_IS_FINISHED: 1,
    });
  });
});
