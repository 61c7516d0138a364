import request from 'supertest';
import { callStatusId, recordCall } from './factories/calls';
import { assignOrderToClient, clientKeyFor, insertClient } from './factories/clients';
import { createLead, createLeadOrder, testPhone, type TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

/** Entries never get shorter by an add; an opt-out's entry is permanent and only an admin key removes it. */
describe('do-not-call entries: later adds never shorten them, opt-outs need admin to remove', () => {
  let t: TestApp;
  let client: number;
  let order: TestOrder;
  let clientKey: string;
  let notAnswered: number;
  let seq = 0;
  const post = (path: string, body: object, key = t.apiKey) => request(t.http).post(path).set('X-Api-Key', key).send(body);
  const get = async (path: string) => (await request(t.http).get(path).set('X-Api-Key', t.apiKey).expect(200)).body.data;
  const entries = async (phone: string) => (await get(`/v2/dnc/?phone=${encodeURIComponent(phone)}`)).list as Record<string, unknown>[];
  const planned = async (id: number) => ((await get(`/v2/lead/detail/${id}/`)).planningCallDateTime as string) !== '';
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
  const optOut = (leadId: number) =>
    recordCall(t, {
      leadId,
      orderId: order.id,
      platformCallId: `permanent-${process.pid}-${++seq}`,
      statusId: notAnswered,
      totalDurationSeconds: 20,
      waitTimeDurationSeconds: 20,
      talkTimeDurationSeconds: 0,
      startedAt: new Date(Date.now() - 60_000),
      optOut: true,
    });

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    client = await insertClient(t);
    order = await createLeadOrder(t);
    await assignOrderToClient(t, order.id, client);
    clientKey = await clientKeyFor(t, client);
    notAnswered = await callStatusId(t, 'not-answered');
  });
  afterAll(async () => {
    await t.close();
  });

  it("an add with expiresAt on an opt-out's number keeps the entry permanent, source call and its call", async () => {
    const phone = testPhone();
    const lead = await createLead(t, order, { phone });
    const callId = await optOut(lead);
    await post('/v2/dnc/add/', { phones: [phone], clientId: client, expiresAt: inDays(1), reason: 'asked by e-mail' }).expect(200);
    expect(await entries(phone)).toEqual([expect.objectContaining({ phone, scope: 'client', expiresAt: null, source: 'call', callId })]);
    // Nothing for the sweep to expire: the lead stays held.
    expect(await t.ds.query(`SELECT count(*)::int AS n FROM dnc_entry WHERE phone = $1 AND expires_at IS NOT NULL`, [phone])).toEqual([{ n: 0 }]);
    expect(await planned(lead)).toBe(false);
  });

  it('an add never shortens an entry: the later expiry wins, no expiry wins over any date', async () => {
    const phone = testPhone();
    const expiry = async () => (await entries(phone))[0].expiresAt as string | null;
    await post('/v2/dnc/add/', { phones: [phone], orderId: order.id, expiresAt: inDays(30) }).expect(200);
    const thirty = await expiry();
    await post('/v2/dnc/add/', { phones: [phone], orderId: order.id, expiresAt: inDays(10) }).expect(200);
    expect(await expiry()).toBe(thirty);
    await post('/v2/dnc/add/', { phones: [phone], orderId: order.id, expiresAt: inDays(60) }).expect(200);
    expect(new Date((await expiry())!).getTime()).toBeGreaterThan(new Date(thirty!).getTime());
    await post('/v2/dnc/add/', { phones: [phone], orderId: order.id }).expect(200);
    expect(await expiry()).toBeNull();
    await post('/v2/dnc/add/', { phones: [phone], orderId: order.id, expiresAt: inDays(5) }).expect(200);
    expect(await expiry()).toBeNull();
    expect(await entries(phone)).toEqual([expect.objectContaining({ source: 'api', callId: null })]);
  });

  it("a key without the admin scope cannot remove an opt-out's entry (403, nothing changes); an admin key can", async () => {
    const phone = testPhone();
    const other = testPhone();
    const lead = await createLead(t, order, { phone });
    const callId = await optOut(lead);
    await post('/v2/dnc/add/', { phones: [other], clientId: client }).expect(200);
    const apiOnly = await t.keyWith('api');
    for (const key of [clientKey, apiOnly]) {
      const res = await post('/v2/dnc/remove/', { phones: [other, phone], clientId: client }, key).expect(403);
      expect(res.body).toEqual({ success: false, message: expect.stringMatching(/opt-out.*admin/), data: [] });
    }
    expect(await entries(phone)).toEqual([expect.objectContaining({ source: 'call', callId })]);
    expect(await entries(other)).toHaveLength(1);
    expect(await planned(lead)).toBe(false);

    // Entries an add made are removed as before, by any key that reaches the list.
    expect((await post('/v2/dnc/remove/', { phones: [other], clientId: client }, clientKey).expect(200)).body.data).toEqual({ count: 1 });
    expect((await post('/v2/dnc/remove/', { phones: [phone], clientId: client }).expect(200)).body.data).toEqual({ count: 1 });
    expect(await entries(phone)).toEqual([]);
  });
});
