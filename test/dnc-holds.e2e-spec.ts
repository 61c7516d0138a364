import request from 'supertest';
import { callStatusId, recordCall } from './factories/calls';
import { assignOrderToClient, insertClient } from './factories/clients';
import { createLead, createLeadOrder, leadBody, testPhone, type TestOrder } from './factories/leads';
import { type FeedEvent, feedHead, followFeed } from './support/event-feed';
import { untilTrue } from './support/until';
import { createTestApp, TestApp } from './support/test-app';

/** Leads held by do-not-call entries from their first moment on every create path, planned again on removal and expiry. */
describe('do-not-call holds: creates, removal, expiry, races', () => {
  let t: TestApp;
  let order: TestOrder;
  const post = (path: string, body: object) => request(t.http).post(path).set('X-Api-Key', t.apiKey).send(body);
  const get = async (path: string) => (await request(t.http).get(path).set('X-Api-Key', t.apiKey).expect(200)).body.data;
  const planned = async (id: number) => (await get(`/v2/lead/detail/${id}/`)).planningCallDateTime as string;
  const reasons = async (id: number) => (await get(`/v2/lead/callable/${id}/`)).reasons as string[];
  const plannedOfPhone = async (phone: string) =>
    (await t.ds.query(`SELECT count(*)::int AS n FROM lead WHERE phone = $1 AND planning_call_at IS NOT NULL`, [phone]))[0].n as number;

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0', DNC_EXPIRY_SWEEP_MS: '200' });
    order = await createLeadOrder(t);
    // A 10-minute redial ladder: an unanswered call plans the next one.
    const [group] = await t.ds.query(`INSERT INTO call_attempt_group (title, intervals, repeat_last_interval) VALUES ('holds', '{10}', true) RETURNING id`);
    await post(`/v2/order/update/${order.id}/`, { autoDialingEnabled: true, callAttemptGroupId: group.id }).expect(200);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a lead created with a listed number is blocked from its first moment, on every create path', async () => {
    const phone = testPhone();
    await post('/v2/dnc/add/', { phones: [phone] }).expect(200);
    const sync = (await post('/v2/lead/create/', leadBody(order, { phone })).expect(200)).body.data.id as number;
    const batch = (await post('/v2/lead/create-batch/', { leads: [leadBody(order, { phone }), leadBody(order)] }).expect(200)).body.data.results;
    const upserted = (await post('/v2/lead/upsert/', { ...leadBody(order, { phone, externalIdCrmA: `h-${phone}` }), matchBy: 'externalIdCrmA' }).expect(200))
      .body.data.id as number;
    const v1 = (await post('/v1/lead/create/', { lead_type: 'straight', client_phone: phone, order_id: order.id, order_code: order.code }).expect(200)).body
      .data.id as number;
    const jobId = (await post('/v2/lead/create-async/', leadBody(order, { phone })).expect(200)).headers['x-job-id'];
    let asyncLead = 0;
    expect(
      await untilTrue(async () => {
        asyncLead = (await get(`/v2/lead/create-async/${jobId}/`)).leadId ?? 0;
        return asyncLead > 0;
      }, 20_000),
    ).toBe(true);
    for (const id of [sync, batch[0].id, upserted, v1, asyncLead]) {
      expect(await planned(id)).toBe('');
      expect(await reasons(id)).toContain('dnc');
    }
    expect(await planned(batch[1].id)).not.toBe('');
    expect((await get(`/v1/lead/detail/${v1}/`)).UF_CALL_DATE_TIME).toBe(0);
    // The lead.created event shows the lead as stored: no planned call.
    const rows = await t.ds.query(
      `SELECT payload->'row'->>'planning_call_at' AS p FROM event WHERE type = 'lead.created' AND (payload->'row'->>'id')::int = $1`,
      [sync],
    );
    expect(rows).toEqual([{ p: null }]);
  });

  it('race: 20 creates of a number in parallel with its add leave no lead of it planned (repeated)', async () => {
    for (let round = 0; round < 5; round++) {
      const phone = testPhone();
      const creates = Array.from({ length: 20 }, () => post('/v2/lead/create/', leadBody(order, { phone })));
      const add = post('/v2/dnc/add/', { phones: [phone] });
      const answers = await Promise.all([...creates, add]);
      expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 21 }, () => 200));
      expect(await plannedOfPhone(phone)).toBe(0);
    }
  });

  it('removing a number plans its leads again (attempts kept, lead.updated), unless another list still holds them', async () => {
    const phone = testPhone();
    const [a, b] = [await createLead(t, order, { phone }), await createLead(t, order, { phone })];
    await recordCall(t, {
      leadId: a,
      orderId: order.id,
      platformCallId: `h-${phone}`,
      statusId: await callStatusId(t, 'not-answered'),
      totalDurationSeconds: 10,
      waitTimeDurationSeconds: 10,
      talkTimeDurationSeconds: 0,
      startedAt: new Date(Date.now() - 60_000),
    });
    await post('/v2/dnc/add/', { phones: [phone] }).expect(200);
    await post('/v2/dnc/add/', { phones: [phone], orderId: order.id }).expect(200);
    expect([await planned(a), await planned(b)]).toEqual(['', '']);

    const head = await feedHead(t);
    expect((await post('/v2/dnc/remove/', { phones: [phone] }).expect(200)).body.data).toEqual({ count: 1 });
    expect([await planned(a), await planned(b)]).toEqual(['', '']);
    expect((await post('/v2/dnc/remove/', { phones: [phone], orderId: order.id }).expect(200)).body.data).toEqual({ count: 1 });
    expect(await planned(a)).not.toBe('');
    expect(await planned(b)).not.toBe('');
    expect(await reasons(a)).not.toContain('dnc');
    expect((await t.ds.query(`SELECT attempt_count AS n FROM lead WHERE id = $1`, [a]))[0].n).toBe(1);
    const ofLeads = (e: FeedEvent) => e.type === 'lead.updated' && [a, b].includes(e.data.lead?.id);
    const events = (await followFeed(t, head, (es) => es.filter(ofLeads).length >= 2)).events.filter(ofLeads);
    expect(events).toHaveLength(2);
    for (const e of events) expect(e.data.changed).toContain('planningCallDateTime');
  });

  it('a lead stopped for a reason of its own stays stopped when its number is removed', async () => {
    const phone = testPhone();
    const lead = await createLead(t, order, { phone });
    await post('/v2/dnc/add/', { phones: [phone] }).expect(200);
    await recordCall(t, {
      leadId: lead,
      orderId: order.id,
      platformCallId: `final-${phone}`,
      statusId: await callStatusId(t, 'answered'),
      totalDurationSeconds: 60,
      waitTimeDurationSeconds: 5,
      talkTimeDurationSeconds: 55,
      startedAt: new Date(Date.now() - 120_000),
    });
    await post('/v2/dnc/remove/', { phones: [phone] }).expect(200);
    expect(await planned(lead)).toBe('');
    expect(await reasons(lead)).toEqual(expect.arrayContaining(['dialing_stopped']));
  });

  it('an expiry plans the lead within the sweep interval; callable and the planned call change together', async () => {
    const phone = testPhone();
    const lead = await createLead(t, order, { phone });
    await post('/v2/dnc/add/', { phones: [phone], expiresAt: new Date(Date.now() + 1_500).toISOString() }).expect(200);
    expect(await planned(lead)).toBe('');
    expect(await reasons(lead)).toContain('dnc');
    expect(await untilTrue(async () => (await planned(lead)) !== '', 5_000)).toBe(true);
    expect(await reasons(lead)).not.toContain('dnc');
    const [entry] = (await get(`/v2/dnc/?phone=${encodeURIComponent(phone)}`)).list;
    expect(entry.expiresAt).not.toBe('');
  });

  it('an opt-out on a call holds the lead instead of planning it; a phone change of a held lead plans it for the new number', async () => {
    const phone = testPhone();
    const lead = await createLead(t, order, { phone });
    const head = await feedHead(t);
    await recordCall(t, {
      leadId: lead,
      orderId: order.id,
      platformCallId: `opt-${phone}`,
      statusId: await callStatusId(t, 'not-answered'),
      totalDurationSeconds: 10,
      waitTimeDurationSeconds: 10,
      talkTimeDurationSeconds: 0,
      startedAt: new Date(Date.now() - 30_000),
      optOut: true,
    });
    expect(await planned(lead)).toBe('');
    const ofLead = (e: FeedEvent) => e.type === 'lead.updated' && e.data.lead?.id === lead;
    const events = (await followFeed(t, head, (es) => es.some(ofLead))).events.filter(ofLead);
    expect(events).toHaveLength(1);
    expect(events[0].data.lead.planningCallDateTime).toBe('');

    await post(`/v2/lead/update/${lead}/`, { phone: testPhone() }).expect(200);
    expect(await planned(lead)).not.toBe('');
  });

  it('an order that starts requiring consent holds its leads without it; dropping the rule plans them again', async () => {
    const o = await createLeadOrder(t);
    const consent = { givenAt: new Date(Date.now() - 60_000).toISOString(), source: 'web_form' };
    const [without, withConsent] = [await createLead(t, o), await createLead(t, o, { consent })];
    const listed = testPhone();
    const listedLead = await createLead(t, o, { phone: listed });
    await post('/v2/dnc/add/', { phones: [listed] }).expect(200);

    await post(`/v2/order/update/${o.id}/`, { consentRequired: true }).expect(200);
    expect(await planned(without)).toBe('');
    expect(await reasons(without)).toContain('no_consent');
    expect(await planned(withConsent)).not.toBe('');

    await post(`/v2/order/update/${o.id}/`, { consentRequired: false }).expect(200);
    expect(await planned(without)).not.toBe('');
    expect(await planned(listedLead)).toBe('');
    await post('/v2/dnc/remove/', { phones: [listed] }).expect(200);
    expect(await planned(listedLead)).not.toBe('');
  });

  it("an order moved to a client comes under the client's list; moved out, its leads are planned again", async () => {
    const o = await createLeadOrder(t);
    const client = await insertClient(t);
    const phone = testPhone();
    const lead = await createLead(t, o, { phone });
    await post('/v2/dnc/add/', { phones: [phone], clientId: client }).expect(200);
    expect(await planned(lead)).not.toBe('');
    await assignOrderToClient(t, o.id, client);
    expect(await planned(lead)).toBe('');
    expect(await reasons(lead)).toContain('dnc');
    await assignOrderToClient(t, o.id, null);
    expect(await planned(lead)).not.toBe('');
  });

  it('consent given to a listed lead leaves it held; removal then plans it', async () => {
    const o = await createLeadOrder(t);
    await post(`/v2/order/update/${o.id}/`, { consentRequired: true }).expect(200);
    const phone = testPhone();
    const lead = await createLead(t, o, { phone });
    await post('/v2/dnc/add/', { phones: [phone] }).expect(200);
    await post(`/v2/lead/update/${lead}/`, { consent: { givenAt: new Date(Date.now() - 1000).toISOString(), source: 'sms' } }).expect(200);
    expect(await planned(lead)).toBe('');
    expect(await reasons(lead)).toContain('dnc');
    await post('/v2/dnc/remove/', { phones: [phone] }).expect(200);
    expect(await planned(lead)).not.toBe('');
  });
});
