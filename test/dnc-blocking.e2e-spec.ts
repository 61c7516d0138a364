import request from 'supertest';
import { callStatusId, recordCall } from './factories/calls';
import { assignOrderToClient, insertClient } from './factories/clients';
import { createLead, createLeadOrder, testPhone, type TestOrder } from './factories/leads';
import { type FeedEvent, feedHead, followFeed } from './support/event-feed';
import { untilTrue } from './support/until';
import { createTestApp, TestApp } from './support/test-app';

/** What a do-not-call entry does to leads: adding a number stops the leads it covers at once; callable says dnc. */
describe('do-not-call entries block leads', () => {
  let t: TestApp;
  let client: number;
  let [orderA1, orderA2, own]: TestOrder[] = [];
  const post = (path: string, body: object) => request(t.http).post(path).set('X-Api-Key', t.apiKey).send(body);
  const get = async (path: string) => (await request(t.http).get(path).set('X-Api-Key', t.apiKey).expect(200)).body.data;
  const planned = async (id: number) => (await get(`/v2/lead/detail/${id}/`)).planningCallDateTime as string;
  /** One lead of `phone` in each order: two of the client's, one of the call center's own. */
  const leadsOf = async (phone: string) => [
    await createLead(t, orderA1, { phone }),
    await createLead(t, orderA2, { phone }),
    await createLead(t, own, { phone }),
  ];
  const states = async (ids: number[]) => Promise.all(ids.map(async (id) => ((await planned(id)) === '' ? 'blocked' : 'planned')));

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0', DNC_EXPIRY_SWEEP_MS: '200' });
    client = await insertClient(t);
    [orderA1, orderA2, own] = [await createLeadOrder(t), await createLeadOrder(t), await createLeadOrder(t)];
    await assignOrderToClient(t, orderA1.id, client);
    await assignOrderToClient(t, orderA2.id, client);
  });
  afterAll(async () => {
    await t.close();
  });

  it("an order's list stops that order's leads of the number only, emitting lead.updated with planningCallDateTime", async () => {
    const phone = testPhone();
    const leads = await leadsOf(phone);
    expect(await states(leads)).toEqual(['planned', 'planned', 'planned']);
    const head = await feedHead(t);
    await post('/v2/dnc/add/', { phones: [phone], orderId: orderA1.id }).expect(200);
    expect(await states(leads)).toEqual(['blocked', 'planned', 'planned']);
    const ofLead = (e: FeedEvent) => e.type === 'lead.updated' && e.data.lead?.id === leads[0];
    const events = (await followFeed(t, head, (es) => es.some(ofLead))).events.filter(ofLead);
    expect(events).toHaveLength(1);
    expect(events[0].data.changed).toContain('planningCallDateTime');
    expect(events[0].data.lead.planningCallDateTime).toBe('');
    expect(events[0].data.lead).toEqual(await get(`/v2/lead/detail/${leads[0]}/`));
    expect(events[0].data.changed).toEqual(['planningCallDateTime', 'dialingHold']);
    expect(events[0].data.lead.dialingHold).toEqual({ reasons: ['dnc'], since: expect.any(String) });
    expect((await get(`/v1/lead/detail/${leads[0]}/`)).UF_CALL_DATE_TIME).toBe(0);
    const c = await get(`/v2/lead/callable/${leads[0]}/`);
    expect({ callableNow: c.callableNow, next: c.nextCallableAt }).toEqual({ callableNow: false, next: null });
    expect(c.reasons).toContain('dnc');
    expect(c.reasons).not.toContain('dialing_stopped');
    expect((await get(`/v2/lead/callable/${leads[1]}/`)).reasons).not.toContain('dnc');
  });

  it("a client's list stops the leads of every order of the client; the global list every lead", async () => {
    const phone = testPhone();
    const leads = await leadsOf(phone);
    await post('/v2/dnc/add/', { phones: [phone], clientId: client }).expect(200);
    expect(await states(leads)).toEqual(['blocked', 'blocked', 'planned']);
    expect((await get(`/v2/lead/callable/${leads[2]}/`)).reasons).not.toContain('dnc');
    await post('/v2/dnc/add/', { phones: [phone] }).expect(200);
    expect(await states(leads)).toEqual(['blocked', 'blocked', 'blocked']);
    expect((await get(`/v2/lead/callable/${leads[2]}/`)).reasons).toContain('dnc');
  });

  it('stops every lead of many numbers in one add, and leaves other numbers alone', async () => {
    const phones = Array.from({ length: 30 }, () => testPhone());
    const leads = await Promise.all(phones.map((phone) => createLead(t, own, { phone })));
    const other = await createLead(t, own);
    await post('/v2/dnc/add/', { phones }).expect(200);
    expect(new Set(await states(leads))).toEqual(new Set(['blocked']));
    expect(await states([other])).toEqual(['planned']);
  });

  it('callable, the detail and the planned call follow an expired entry together, once the sweep applies it', async () => {
    const phone = testPhone();
    const lead = await createLead(t, own, { phone });
    await post('/v2/dnc/add/', { phones: [phone], orderId: own.id, expiresAt: new Date(Date.now() + 3_600_000).toISOString() }).expect(200);
    expect((await get(`/v2/lead/callable/${lead}/`)).reasons).toContain('dnc');
    await t.ds.query(`UPDATE dnc_entry SET expires_at = now() - interval '1 second' WHERE phone = $1`, [phone]);
    expect(await untilTrue(async () => (await get(`/v2/lead/detail/${lead}/`)).dialingHold === null, 5_000)).toBe(true);
    expect((await get(`/v2/lead/callable/${lead}/`)).reasons).not.toContain('dnc');
  });

  it("an opt-out on a call puts the number on the order's client's list (global without a client), stopping its leads there", async () => {
    const statusId = await callStatusId(t, 'not-answered');
    const call = (leadId: number, order: TestOrder, optOut?: boolean) =>
      recordCall(t, {
        leadId,
        orderId: order.id,
        platformCallId: `dnc-${leadId}-${Date.now()}`,
        statusId,
        totalDurationSeconds: 20,
        waitTimeDurationSeconds: 20,
        talkTimeDurationSeconds: 0,
        startedAt: new Date(Date.now() - 60_000),
        optOut,
      });
    const phone = testPhone();
    const leads = await leadsOf(phone);
    await call(leads[0], orderA1, false);
    expect((await get(`/v2/dnc/?phone=${encodeURIComponent(phone)}`)).total).toBe(0);
    expect(await states(leads.slice(1))).toEqual(['planned', 'planned']);
    const callId = await call(leads[0], orderA1, true);
    expect(await states(leads)).toEqual(['blocked', 'blocked', 'planned']);
    const entries = (await get(`/v2/dnc/?phone=${encodeURIComponent(phone)}`)).list;
    expect(entries).toEqual([expect.objectContaining({ phone, scope: 'client', clientId: client, orderId: null, source: 'call', callId, expiresAt: null })]);
    expect((await get(`/v2/lead/callable/${leads[1]}/`)).reasons).toContain('dnc');

    const ownCall = await call(leads[2], own, true);
    expect(await states(leads)).toEqual(['blocked', 'blocked', 'blocked']);
    expect((await get(`/v2/dnc/?phone=${encodeURIComponent(phone)}&scope=global`)).list).toEqual([
      expect.objectContaining({ scope: 'global', source: 'call', callId: ownCall }),
    ]);
  });

  it('a call with an opt-out status (isOptOut) does the same as optOut', async () => {
    const admin = await t.keyWith('admin');
    const created = await request(t.http)
      .post('/v2/call-status/create/')
      .set('X-Api-Key', admin)
      .send({ code: `opt-out-${Date.now()}`, title: 'Do not call me', category: 'answered', isOptOut: true })
      .expect(200);
    const statusId = created.body.data.id as number;
    expect((await get(`/v2/call-status/detail/${statusId}/`)).isOptOut).toBe(true);
    const phone = testPhone();
    const leads = await leadsOf(phone);
    const callId = await recordCall(t, {
      leadId: leads[1],
      orderId: orderA2.id,
      platformCallId: `dnc-status-${leads[1]}`,
      statusId,
      totalDurationSeconds: 30,
      waitTimeDurationSeconds: 5,
      talkTimeDurationSeconds: 25,
      startedAt: new Date(Date.now() - 60_000),
    });
    expect(await states(leads)).toEqual(['blocked', 'blocked', 'planned']);
    expect((await get(`/v2/dnc/?phone=${encodeURIComponent(phone)}`)).list).toEqual([
      expect.objectContaining({ scope: 'client', clientId: client, source: 'call', callId }),
    ]);
  });
});
