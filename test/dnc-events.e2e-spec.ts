import request from 'supertest';
import { callStatusId } from './factories/calls';
import { assignOrderToClient, clientKeyFor, insertClient } from './factories/clients';
import { createLead, createLeadOrder, testPhone, type TestOrder } from './factories/leads';
import { createSipEndpoint } from './factories/reference';
import { type FeedEvent, feedHead, followFeed } from './support/event-feed';
import { createTestApp, TestApp } from './support/test-app';

/** dnc.added and dnc.removed: one event per write of a list, in the write's transaction, in the feed like every event. */
describe('events: do-not-call list changes', () => {
  let t: TestApp;
  let client: number;
  let order: TestOrder;
  let own: TestOrder;
  let seq = 0;
  const post = (path: string, body: object, key = t.apiKey) => request(t.http).post(path).set('X-Api-Key', key).send(body);
  const dncEvents = async (after: number, until: (es: FeedEvent[]) => boolean) =>
    (await followFeed(t, after, (es) => until(es.filter(isDnc)), { query: { types: ['dnc.added', 'dnc.removed'] } })).events;
  const isDnc = (e: FeedEvent) => e.type === 'dnc.added' || e.type === 'dnc.removed';
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0', DNC_EXPIRY_SWEEP_MS: '100' });
    client = await insertClient(t);
    order = await createLeadOrder(t);
    own = await createLeadOrder(t);
    await assignOrderToClient(t, order.id, client);
  });
  afterAll(async () => {
    await t.close();
  });

  it('an add is one dnc.added per request and list, with the numbers of the write; a remove one dnc.removed with those removed', async () => {
    const head = await feedHead(t);
    const [p1, p2, p3] = [testPhone(), testPhone(), testPhone()].sort();
    const expiresAt = inDays(3);
    await post('/v2/dnc/add/', { phones: [p2, p1], orderId: order.id, expiresAt, reason: 'campaign over' }).expect(200);
    await post('/v2/dnc/add/', { phones: [p3], clientId: client }).expect(200);
    await post('/v2/dnc/add/', { phones: [p3] }).expect(200);
    await post('/v2/dnc/remove/', { phones: [p1, p3], orderId: order.id }).expect(200);
    const events = await dncEvents(head, (es) => es.length >= 4);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'dnc.added',
        {
          scope: 'order',
          orderId: order.id,
          clientId: null,
          phones: [p1, p2],
          expiresAt: expiresAt.replace(/\.\d{3}Z$/, '+00:00'),
          reason: 'campaign over',
          source: 'api',
          callId: null,
        },
      ],
      ['dnc.added', { scope: 'client', orderId: null, clientId: client, phones: [p3], expiresAt: null, reason: null, source: 'api', callId: null }],
      ['dnc.added', { scope: 'global', orderId: null, clientId: null, phones: [p3], expiresAt: null, reason: null, source: 'api', callId: null }],
      ['dnc.removed', { scope: 'order', orderId: order.id, clientId: null, phones: [p1], expiresAt: null, reason: null, source: 'api', callId: null }],
    ]);
  });

  it('an opt-out on a call is a dnc.added of source call; its re-delivery adds no second one; its removal names the call', async () => {
    const head = await feedHead(t);
    const phone = testPhone();
    const lead = await createLead(t, own, { phone });
    const body = {
      leadId: lead,
      platformCallId: `dnc-events-${process.pid}-${++seq}`,
      sipEndpointId: await createSipEndpoint(t),
      statusId: await callStatusId(t, 'not-answered'),
      direction: 'outgoing',
      totalDurationSeconds: 10,
      waitTimeDurationSeconds: 10,
      talkTimeDurationSeconds: 0,
      optOut: true,
    };
    const telephony = await t.keyWith('telephony');
    const callId = (await post('/v2/call/create/', body, telephony).expect(200)).body.data.id as number;
    await post('/v2/call/create/', body, telephony).expect(200);
    await post('/v2/dnc/remove/', { phones: [phone] }).expect(200);
    const events = await dncEvents(head, (es) => es.some((e) => e.type === 'dnc.removed'));
    const base = { scope: 'global', orderId: null, clientId: null, phones: [phone], expiresAt: null, reason: null, source: 'call', callId };
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['dnc.added', base],
      ['dnc.removed', base],
    ]);
  });

  it('an expiry is a dnc.removed with reason expired and the expiry reached', async () => {
    const head = await feedHead(t);
    const phones = [testPhone(), testPhone()].sort();
    await post('/v2/dnc/add/', { phones, clientId: client, expiresAt: inDays(1) }).expect(200);
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000);
    await t.ds.query(`UPDATE dnc_entry SET expires_at = $2 WHERE phone = ANY($1::text[])`, [phones, at]);
    const events = await dncEvents(head, (es) => es.some((e) => e.type === 'dnc.removed'));
    expect(events.filter((e) => e.type === 'dnc.removed').map((e) => e.data)).toEqual([
      {
        scope: 'client',
        orderId: null,
        clientId: client,
        phones,
        expiresAt: at.toISOString().replace(/\.\d{3}Z$/, '+00:00'),
        reason: 'expired',
        source: 'api',
        callId: null,
      },
    ]);
  });

  it('a refused write writes no event', async () => {
    const phone = testPhone();
    const lead = await createLead(t, order, { phone });
    await post(
      '/v2/call/create/',
      {
        leadId: lead,
        platformCallId: `dnc-events-${process.pid}-${++seq}`,
        sipEndpointId: await createSipEndpoint(t),
        statusId: await callStatusId(t, 'not-answered'),
        direction: 'outgoing',
        totalDurationSeconds: 10,
        waitTimeDurationSeconds: 10,
        talkTimeDurationSeconds: 0,
        optOut: true,
      },
      await t.keyWith('telephony'),
    ).expect(200);
    const head = await feedHead(t);
    await post('/v2/dnc/add/', { phones: [testPhone(), 'not a number'], clientId: client }).expect(400);
    await post('/v2/dnc/remove/', { phones: [phone] }, await clientKeyFor(t, client)).expect(403);
    await post('/v2/dnc/add/', { phones: [testPhone()], orderId: own.id }).expect(200);
    const events = await dncEvents(head, (es) => es.length >= 1);
    expect(events.map((e) => [e.type, e.data.orderId])).toEqual([['dnc.added', own.id]]);
  });
});
