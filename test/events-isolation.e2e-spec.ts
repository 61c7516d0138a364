import request from 'supertest';
import { callStatusId, recordCall } from './factories/calls';
import { assignOrderToClient, clientKeyFor, insertClient } from './factories/clients';
import { createLead, createLeadOrder, testPhone, TestOrder } from './factories/leads';
import { createSipEndpoint } from './factories/reference';
import { feedHead, FeedEvent } from './support/event-feed';
import { createTestApp, TestApp } from './support/test-app';

type Page = { list: FeedEvent[]; next: number };

/**
 * The event feed with a client key: events of its client's orders (every type but webhook.test and a
 * client's or the global do-not-call list's events carries its order), of its client's own do-not-call
 * list, and the test events of its client's webhooks, in feed order, never skipping.
 */
describe('events: client isolation', () => {
  let t: TestApp;
  let keyA: string;
  let keyB: string;
  let keyNobody: string;
  let clientA: number;
  let clientB: number;
  let orders: Record<'a' | 'b' | 'own', TestOrder>;
  /** Created through the API (an order.created event), then given to client A. */
  let apiOrderOfA: number;
  let start: number;
  const hooks: Record<'a' | 'b' | 'own', number> = { a: 0, b: 0, own: 0 };
  let seq = 0;

  const page = async (key: string, query: Record<string, unknown>): Promise<Page> => {
    const res = await request(t.http).get('/v2/event/').query(query).set('X-Api-Key', key);
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)} ${JSON.stringify(query)}`);
    return res.body.data as Page;
  };
  /** Everything after `after`, page by page (`limit` per page). */
  const readAll = async (key: string, query: Record<string, unknown> = {}, limit = 1000): Promise<FeedEvent[]> => {
    const events: FeedEvent[] = [];
    let next = start;
    for (;;) {
      const p = await page(key, { ...query, after: next, limit });
      if (p.list.length === 0) return events;
      events.push(...p.list);
      next = p.next;
    }
  };
  /** The order an event is about, as its data shows it; null for webhook.test. */
  const orderOf = (e: FeedEvent): number | null =>
    (e.data.lead?.orderId ?? e.data.call?.orderId ?? e.data.order?.id ?? e.data.orderId ?? null) as number | null;

  async function webhookOf(key: string): Promise<number> {
    const res = await request(t.http)
      .post('/v2/webhook/create/')
      .set('X-Api-Key', key)
      .send({ url: `http://127.0.0.1:9/hook-${++seq}`, events: ['*'] });
    expect(res.status).toBe(200);
    return res.body.data.id as number;
  }

  beforeAll(async () => {
    // No workers: nothing is delivered, the feed alone is under test.
    t = await createTestApp({ WORKERS: '0', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    orders = { a: await createLeadOrder(t), b: await createLeadOrder(t), own: await createLeadOrder(t) };
    [clientA, clientB] = [await insertClient(t), await insertClient(t)];
    await assignOrderToClient(t, orders.a.id, clientA);
    await assignOrderToClient(t, orders.b.id, clientB);
    [keyA, keyB, keyNobody] = [await clientKeyFor(t, clientA), await clientKeyFor(t, clientB), await clientKeyFor(t, await insertClient(t))];
    hooks.a = await webhookOf(keyA);
    hooks.b = await webhookOf(keyB);
    hooks.own = await webhookOf(t.apiKey);
    start = await feedHead(t);

    const created = await request(t.http)
      .post('/v2/order/create/')
      .set('X-Api-Key', t.apiKey)
      .send({ serviceTitle: 'Feed', title: 'Feed', status: 'info', sipEndpointIds: [await createSipEndpoint(t)] });
    expect(created.status).toBe(200);
    apiOrderOfA = created.body.data.id;
    await assignOrderToClient(t, apiOrderOfA, clientA);
    const answered = await callStatusId(t, 'answered');
    for (const order of Object.values(orders)) {
      const leadId = await createLead(t, order);
      await request(t.http).post(`/v2/lead/update/${leadId}/`).set('X-Api-Key', t.apiKey).send({ name: 'Renamed' }).expect(200);
      await recordCall(t, {
        leadId,
        orderId: order.id,
        platformCallId: `feed-${++seq}`,
        statusId: answered,
        totalDurationSeconds: 30,
        waitTimeDurationSeconds: 10,
        talkTimeDurationSeconds: 20,
        startedAt: new Date(Date.now() - 60_000),
      });
    }
    for (const [key, id] of [
      [keyA, hooks.a],
      [keyB, hooks.b],
      [t.apiKey, hooks.own],
    ] as const) {
      await request(t.http).post(`/v2/webhook/test/${id}/`).set('X-Api-Key', key).expect(200);
    }
    // Do-not-call lists: client A's own (its key's default) and its order's, client B's, the global one, the call center's order's.
    const dnc = (path: string, key: string, body: object) => request(t.http).post(`/v2/dnc/${path}/`).set('X-Api-Key', key).send(body).expect(200);
    const [p1, p2, p3] = [testPhone(), testPhone(), testPhone()];
    await dnc('add', keyA, { phones: [p1, p2] });
    await dnc('add', keyA, { phones: [p3], orderId: orders.a.id });
    await dnc('remove', keyA, { phones: [p1] });
    await dnc('add', keyB, { phones: [p1] });
    await dnc('add', t.apiKey, { phones: [p1] });
    await dnc('add', t.apiKey, { phones: [p1], orderId: orders.own.id });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The client of a client's do-not-call list's event; undefined for every other event. */
  const listClientOf = (e: FeedEvent): number | undefined => (e.type.startsWith('dnc.') && e.data.scope === 'client' ? (e.data.clientId as number) : undefined);
  /** What the unrestricted feed holds of client A: the events of its orders, of its own do-not-call list and its webhook's test event. */
  const ofClientA = (all: FeedEvent[], orderIds = [orders.a.id, apiOrderOfA]) =>
    all.filter((e) =>
      e.type === 'webhook.test'
        ? e.data.webhookId === hooks.a
        : listClientOf(e) !== undefined
          ? listClientOf(e) === clientA
          : orderIds.includes(orderOf(e) as number),
    );

  it("holds exactly the events of the client's orders and its webhooks' test events, as the unrestricted feed shows them", async () => {
    const all = await readAll(t.apiKey);
    const seenByA = await readAll(keyA);
    expect(seenByA).toEqual(ofClientA(all));
    // Recording a call also updates its lead (attempts, next call): a second lead.updated; giving the order to A is an order.updated.
    expect(seenByA.map((e) => e.type).sort()).toEqual([
      'call.created',
      'dnc.added',
      'dnc.added',
      'dnc.removed',
      'lead.created',
      'lead.updated',
      'lead.updated',
      'order.created',
      'order.updated',
      'webhook.test',
    ]);
    // The order created through the API carries its order: the order.created is the client's.
    expect(seenByA.find((e) => e.type === 'order.created')?.data.order.id).toBe(apiOrderOfA);
    const seenByB = await readAll(keyB);
    expect(seenByB.map((e) => [e.type, e.type === 'webhook.test' ? e.data.webhookId : orderOf(e)])).toEqual([
      ['lead.created', orders.b.id],
      ['lead.updated', orders.b.id],
      ['call.created', orders.b.id],
      ['lead.updated', orders.b.id],
      ['webhook.test', hooks.b],
      ['dnc.added', null],
    ]);
    expect(seenByB[seenByB.length - 1].data).toMatchObject({ scope: 'client', clientId: clientB });
    // The global list's events, and the call center's own order's, reach no client key.
    expect(seenByA.concat(seenByB).filter((e) => e.type.startsWith('dnc.') && (e.data.scope === 'global' || e.data.orderId === orders.own.id))).toEqual([]);
    expect((await readAll(t.apiKey)).filter((e) => e.type === 'dnc.added' && (e.data.scope === 'global' || e.data.orderId === orders.own.id))).toHaveLength(2);
    expect(await readAll(keyNobody)).toEqual([]);
  });

  it('pages by position like any feed: small pages read the same events, never skipping; next stays put on an empty page', async () => {
    const whole = await readAll(keyA);
    expect(await readAll(keyA, {}, 1)).toEqual(whole);
    expect(whole.map((e) => e.position)).toEqual([...whole.map((e) => e.position)].sort((x, y) => x - y));
    const last = whole[whole.length - 1].position;
    expect(await page(keyA, { after: last })).toEqual({ list: [], next: last });
  });

  it('filters narrow the reach: other orders add nothing; an orderIds filter leaves test events out; types select', async () => {
    const whole = await readAll(keyA);
    expect(await readAll(keyA, { orderIds: [orders.b.id, orders.own.id] })).toEqual([]);
    expect(await readAll(keyA, { orderIds: [orders.a.id, orders.b.id] })).toEqual(whole.filter((e) => orderOf(e) === orders.a.id));
    expect(await readAll(keyA, { types: ['webhook.test'] })).toEqual(whole.filter((e) => e.type === 'webhook.test'));
    expect(await readAll(keyA, { types: ['lead.created', 'order.created'] })).toEqual(whole.filter((e) => ['lead.created', 'order.created'].includes(e.type)));
    expect(await readAll(keyA, { types: ['webhook.test'], orderIds: [orders.a.id] })).toEqual([]);
    const dncTypes = ['dnc.added', 'dnc.removed'];
    expect(await readAll(keyA, { types: dncTypes })).toEqual(whole.filter((e) => dncTypes.includes(e.type)));
    expect((await readAll(keyA, { types: dncTypes })).map((e) => [e.type, e.data.scope])).toEqual([
      ['dnc.added', 'client'],
      ['dnc.added', 'order'],
      ['dnc.removed', 'client'],
    ]);
    // An orderIds filter leaves a client's list's events out, as test events.
    expect((await readAll(keyA, { types: dncTypes, orderIds: [orders.a.id] })).map((e) => e.data.scope)).toEqual(['order']);
    expect(await readAll(keyA, { types: ['dnc.removed', 'webhook.test'] })).toEqual(whole.filter((e) => ['dnc.removed', 'webhook.test'].includes(e.type)));
  });

  it('the input rules and the retention answer are the same for every key', async () => {
    for (const query of [{ after: -1 }, { types: 'lead.deleted' }, { orderIds: 'x' }]) {
      const res = await request(t.http).get('/v2/event/').query(query).set('X-Api-Key', keyA);
      const asUnrestricted = await request(t.http).get('/v2/event/').query(query).set('X-Api-Key', t.apiKey);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: asUnrestricted.body });
    }
    const [{ through }] = await t.ds.query(`SELECT pruned_through AS through FROM event_retention`);
    await t.ds.query(`UPDATE event_retention SET pruned_through = 1000000`);
    try {
      const expired = await request(t.http).get('/v2/event/').query({ after: 1 }).set('X-Api-Key', keyA);
      expect({ status: expired.status, body: expired.body }).toEqual({
        status: 410,
        body: (await request(t.http).get('/v2/event/').query({ after: 1 }).set('X-Api-Key', t.apiKey)).body,
      });
    } finally {
      await t.ds.query(`UPDATE event_retention SET pruned_through = $1`, [through]);
    }
  });

  it('an order moved to another client takes its events along: they are read in their place in the feed', async () => {
    await assignOrderToClient(t, orders.b.id, clientA);
    try {
      const all = await readAll(t.apiKey);
      expect(await readAll(keyA)).toEqual(ofClientA(all, [orders.a.id, orders.b.id, apiOrderOfA]));
      // Client B's own list stays B's.
      expect((await readAll(keyB)).map((e) => e.type)).toEqual(['webhook.test', 'dnc.added']);
    } finally {
      await assignOrderToClient(t, orders.b.id, clientB);
    }
  });
});
