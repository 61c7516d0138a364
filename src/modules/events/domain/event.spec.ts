import { presentLeadV2 } from '../../leads/http/lead.presenter';
import { changedFields, isEventType, leadChangedFields, snapshotDate } from './event';
import { callFromSnapshot, leadFromSnapshot } from '../persistence/row-snapshots';

/** A lead row as `to_jsonb` stores it (bigints as text, as the trigger writes them). */
const leadRow = {
  id: 12,
  order_id: 3,
  name: null,
  phone: '+79161234567',
  source_comment: '{"a":1}',
  ip: '10.0.0.1',
  external_id_crm_a: 'A',
  external_id_crm_b: null,
  external_id_crm_c: null,
  external_id_crm_d: null,
  status_id: 1,
  lead_type: 'straight',
  create_method: 'API',
  source: 'organic',
  is_secondary: true,
  previous_lead_id: 11,
  next_lead_id: null,
  planning_call_at: '2026-11-23T22:12:30.123456+03:00',
  priority: 2,
  utc_offset: 3,
  time_zone: 'Europe/Moscow',
  social_a_id: '9223372036854775807',
  social_b_login: null,
  messenger_user_name: 'bob',
  messenger_phone: null,
  messenger_id: '77',
  ad_campaign_id: null,
  custom_values: { '7': 'flat' },
  attempt_count: 4,
  job_id: null,
  qualified_at: null,
  selection_type: null,
  city: null,
  additional_params: null,
  consent: null,
  daily_cap_until: null,
  created_at: '2026-11-23T22:00:00+00:00',
  updated_at: '2026-11-23T22:05:00.5+00:00',
};

describe('lead column → v2 field mapping', () => {
  const fields = Object.keys(presentLeadV2(leadFromSnapshot(leadRow, 'code')));

  it('maps changed columns to v2 field names in the order of the Lead object, order_id to orderId and orderCode', () => {
    expect(leadChangedFields(['planning_call_at', 'status_id'], fields)).toEqual(['statusId', 'planningCallDateTime']);
    expect(leadChangedFields(['custom_values', 'order_id', 'external_id_crm_a', 'social_a_id'], fields)).toEqual([
      'externalIdCrmA',
      'orderId',
      'orderCode',
      'socialAId',
      'customValues',
    ]);
    expect(leadChangedFields(['time_zone'], fields)).toEqual(['timeZone']);
  });

  it('leaves out columns the Lead object does not show, and updatedAt', () => {
    expect(leadChangedFields(['attempt_count', 'updated_at', 'next_lead_id', 'qualified_at'], fields)).toEqual([]);
    expect(leadChangedFields([], fields)).toEqual([]);
  });

  it('reaches every field of the Lead v2 detail object from a column, except updatedAt', () => {
    const reachable = leadChangedFields(Object.keys(leadRow), fields);
    expect(fields.filter((f) => !reachable.includes(f))).toEqual(['updatedAt']);
  });
});

describe('row snapshots', () => {
  it('read a lead row as the domain lead: dates from any offset, bigints exact, nulls kept', () => {
    const lead = leadFromSnapshot(leadRow, 'novostroyki');
    expect(lead).toMatchObject({
      id: 12,
      orderId: 3,
      orderCode: 'novostroyki',
      name: null,
      isSecondary: true,
      previousLeadId: 11,
      socialAId: '9223372036854775807',
      customValues: { '7': 'flat' },
    });
    expect(lead.planningCallAt?.toISOString()).toBe('2026-11-23T19:12:30.123Z');
    expect(presentLeadV2(lead)).toMatchObject({ name: '', planningCallDateTime: '2026-11-23T19:12:30+00:00', updatedAt: '2026-11-23T22:05:00+00:00' });
    expect(leadFromSnapshot({ ...leadRow, planning_call_at: null }, '').planningCallAt).toBeNull();
  });

  it('read a call row as the Call shape', () => {
    const call = callFromSnapshot({
      id: 5,
      order_id: 3,
      lead_id: 12,
      user_id: null,
      sip_endpoint_id: 2,
      status_id: 1,
      finish_initiator: 'client',
      direction: 'outgoing',
      total_duration_seconds: 40,
      wait_time_duration_seconds: 10,
      talk_time_duration_seconds: 30,
      is_predictive: false,
      client_phone: '79161234567',
      has_records: true,
      callback_requested: false,
      platform_call_id: 'x',
      created_at: '2026-11-23T22:00:00+00:00',
    });
    expect(call).toEqual({
      id: 5,
      orderId: 3,
      leadId: 12,
      userId: null,
      sipEndpointId: 2,
      statusId: 1,
      finishInitiator: 'client',
      direction: 'outgoing',
      totalDurationSeconds: 40,
      waitTimeDurationSeconds: 10,
      talkTimeDurationSeconds: 30,
      isPredictive: false,
      clientPhone: '79161234567',
      hasRecords: true,
      createdAt: new Date('2026-11-23T22:00:00Z'),
    });
  });

  it('snapshotDate: null for null, empty or unparsable text', () => {
    expect(snapshotDate(null)).toBeNull();
    expect(snapshotDate('')).toBeNull();
    expect(snapshotDate('soon')).toBeNull();
    expect(snapshotDate('2026-01-02T03:04:05+00:00')).toEqual(new Date('2026-01-02T03:04:05Z'));
  });
});

describe('changedFields', () => {
  it('compares by value (dates, arrays, maps), ignores the given fields, lists added and removed keys', () => {
    const before = { title: 'A', at: new Date('2026-01-01'), ids: [1, 2], map: { a: 1 }, updatedAt: 1, gone: 1 };
    const after = { title: 'A', at: new Date('2026-01-01'), ids: [2, 1], map: { a: 1 }, updatedAt: 2, added: 1 };
    expect(changedFields(before, after, ['updatedAt'])).toEqual(['ids', 'gone', 'added']);
    expect(changedFields(before, before)).toEqual([]);
  });
});

describe('isEventType', () => {
  it('knows the documented types only', () => {
    expect(isEventType('lead.created')).toBe(true);
    expect(isEventType('webhook.test')).toBe(true);
    expect(isEventType('lead.deleted')).toBe(false);
    expect(isEventType(1)).toBe(false);
  });
});
