import request from 'supertest';
import { callStatusId } from './factories/calls';
import { assignOrderToClient, insertClient } from './factories/clients';
import { createLead, createLeadOrder, testPhone, type TestOrder } from './factories/leads';
import { createSipEndpoint } from './factories/reference';
import { type FeedEvent, feedHead, followFeed } from './support/event-feed';
import { createTestApp, TestApp } from './support/test-app';

/** What an opt-out on a recorded call lists: the number that was called, once and for good, whatever the platform re-delivers. */
describe('opt-out on a call: the number called, re-deliveries', () => {
  let t: TestApp;
  let client: number;
  let order: TestOrder;
  let telephony: string;
  let sipEndpointId: number;
  let notAnswered: number;
  let seq = 0;
  const get = async (path: string) => (await request(t.http).get(path).set('X-Api-Key', t.apiKey).expect(200)).body.data;
  const planned = async (id: number) => ((await get(`/v2/lead/detail/${id}/`)).planningCallDateTime as string) !== '';
  const entries = async (phone: string) => (await get(`/v2/dnc/?phone=${encodeURIComponent(phone)}`)).list as Record<string, unknown>[];
  const callBody = (leadId: number, extra: Record<string, unknown> = {}) => ({
    leadId,
    orderId: order.id,
    platformCallId: `opt-out-${process.pid}-${++seq}`,
    sipEndpointId,
    statusId: notAnswered,
    direction: 'outgoing',
    totalDurationSeconds: 20,
    waitTimeDurationSeconds: 20,
    talkTimeDurationSeconds: 0,
    startedAt: new Date(Date.now() - 60_000).toISOString(),
    ...extra,
  });
  const record = (body: object) => request(t.http).post('/v2/call/create/').set('X-Api-Key', telephony).send(body);

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    client = await insertClient(t);
    order = await createLeadOrder(t);
    await assignOrderToClient(t, order.id, client);
    telephony = await t.keyWith('telephony');
    sipEndpointId = await createSipEndpoint(t);
    notAnswered = await callStatusId(t, 'not-answered');
  });
  afterAll(async () => {
    await t.close();
  });

  it("lists the call's clientPhone, not the lead's phone a CRM corrected since", async () => {
    const called = testPhone();
    const corrected = testPhone();
    const lead = await createLead(t, order, { phone: called });
    const sameNumber = await createLead(t, order, { phone: called });
    await request(t.http).post(`/v2/lead/update/${lead}/`).set('X-Api-Key', t.apiKey).send({ phone: corrected }).expect(200);
    const callId = (await record(callBody(lead, { clientPhone: called.slice(1), optOut: true })).expect(200)).body.data.id as number;

    expect(await entries(called)).toEqual([expect.objectContaining({ phone: called, scope: 'client', clientId: client, source: 'call', callId })]);
    expect(await entries(corrected)).toEqual([]);
    // The person who asked is not called again under any lead of that number; nobody blocked the corrected number.
    expect(await planned(sameNumber)).toBe(false);
    expect((await get(`/v2/lead/callable/${lead}/`)).reasons).not.toContain('dnc');
  });

  it("lists the lead's phone at the time the call is recorded when the call has no clientPhone", async () => {
    const phone = testPhone();
    const lead = await createLead(t, order, { phone });
    const callId = (await record(callBody(lead, { optOut: true })).expect(200)).body.data.id as number;
    expect(await entries(phone)).toEqual([expect.objectContaining({ phone, source: 'call', callId })]);
    expect(await planned(lead)).toBe(false);
  });

  it('refuses an opt-out whose clientPhone is no valid number with 400, storing nothing', async () => {
    const phone = testPhone();
    const lead = await createLead(t, order, { phone });
    const body = callBody(lead, { clientPhone: '12345', optOut: true });
    const res = await record(body).expect(400);
    expect(res.body).toEqual({
      success: false,
      message: expect.stringContaining('clientPhone'),
      data: { errors: [expect.objectContaining({ field: 'clientPhone' })] },
    });
    expect(await t.ds.query(`SELECT id FROM call WHERE platform_call_id = $1`, [body.platformCallId])).toEqual([]);
    expect(await entries(phone)).toEqual([]);
    expect(await planned(lead)).toBe(true);
  });

  it('applies an opt-out a re-delivery carries (flag or status) and answers the stored call; a re-delivery never removes it', async () => {
    const phone = testPhone();
    const lead = await createLead(t, order, { phone });
    const other = await createLead(t, order, { phone });
    const first = callBody(lead);
    const callId = (await record(first).expect(200)).body.data.id as number;
    expect(await entries(phone)).toEqual([]);
    expect(await planned(other)).toBe(true);

    const again = await record({ ...first, optOut: true }).expect(200);
    expect(again.body).toEqual({ success: true, message: '', data: { id: callId } });
    expect(await entries(phone)).toEqual([expect.objectContaining({ phone, scope: 'client', source: 'call', callId, expiresAt: null })]);
    expect(await planned(lead)).toBe(false);
    expect(await planned(other)).toBe(false);
    expect(await t.ds.query(`SELECT count(*)::int AS n, bool_and(opt_out) AS "optOut" FROM call WHERE platform_call_id = $1`, [first.platformCallId])).toEqual([
      { n: 1, optOut: true },
    ]);

    // A third delivery without the opt-out changes nothing.
    expect((await record(first).expect(200)).body.data).toEqual({ id: callId });
    expect(await entries(phone)).toEqual([expect.objectContaining({ phone, source: 'call', callId })]);
    expect(await planned(other)).toBe(false);
  });

  it('call.created says whether the call recorded an opt-out', async () => {
    const head = await feedHead(t);
    const plain = (await record(callBody(await createLead(t, order))).expect(200)).body.data.id as number;
    const optedOut = (await record(callBody(await createLead(t, order), { optOut: true })).expect(200)).body.data.id as number;
    const ofCall = (id: number) => (e: FeedEvent) => e.type === 'call.created' && e.data.call?.id === id;
    const { events } = await followFeed(t, head, (es) => es.some(ofCall(optedOut)));
    expect(events.find(ofCall(plain))?.data).toEqual({ call: expect.objectContaining({ id: plain }), optOut: false });
    expect(events.find(ofCall(optedOut))?.data).toEqual({ call: expect.objectContaining({ id: optedOut }), optOut: true });
  });

  it('applies an opt-out status on a re-delivery too', async () => {
    const created = await request(t.http)
      .post('/v2/call-status/create/')
      .set('X-Api-Key', t.apiKey)
      .send({ code: `redelivered-opt-out-${process.pid}`, title: 'Do not call me', category: 'answered', isOptOut: true })
      .expect(200);
    const phone = testPhone();
    const lead = await createLead(t, order, { phone });
    const first = callBody(lead);
    const callId = (await record(first).expect(200)).body.data.id as number;
    expect((await record({ ...first, statusId: created.body.data.id }).expect(200)).body.data).toEqual({ id: callId });
    expect(await entries(phone)).toEqual([expect.objectContaining({ phone, source: 'call', callId })]);
    expect(await planned(lead)).toBe(false);
  });
});
