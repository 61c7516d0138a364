import request from 'supertest';
import { callStatusId, recordCall } from './factories/calls';
import { answerWithoutId, assignOrderToClient, clientKeyFor, insertClient } from './factories/clients';
import { createLead, createLeadOrder, TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

/** Calls with a client key: lists and details within its client's orders; another client's call is an unknown one. */
describe('calls: client isolation', () => {
  let t: TestApp;
  let keyA: string;
  let keyB: string;
  let keyNoOrders: string;
  let orders: Record<'a1' | 'a2' | 'b' | 'own', TestOrder>;
  /** Per order: its lead and its calls (answered first, then not answered). */
  const calls: Record<string, { leadId: number; ids: number[] }> = {};
  let answered: number;
  let notAnswered: number;
  const UNKNOWN_CALL = 2_000_000_000;

  const get = (key: string, path: string, query: Record<string, unknown> = {}) => request(t.http).get(path).query(query).set('X-Api-Key', key);
  const listed = async (key: string, query: Record<string, unknown>) => {
    const data = (await get(key, '/v2/call/', { limit: 100, ...query }).expect(200)).body.data as { list: { id: number }[]; total: number };
    return { ids: data.list.map((c) => c.id), total: data.total };
  };

  let platformSeq = 0;
  const callIn = (order: TestOrder, leadId: number, statusId: number) =>
    recordCall(t, {
      leadId,
      orderId: order.id,
      platformCallId: `iso-${++platformSeq}`,
      statusId,
      totalDurationSeconds: 30,
      waitTimeDurationSeconds: 10,
      talkTimeDurationSeconds: 20,
      startedAt: new Date(Date.UTC(2026, 0, 10, 10, platformSeq)),
    });

  beforeAll(async () => {
    t = await createTestApp();
    answered = await callStatusId(t, 'answered');
    notAnswered = await callStatusId(t, 'not-answered');
    orders = { a1: await createLeadOrder(t), a2: await createLeadOrder(t), b: await createLeadOrder(t), own: await createLeadOrder(t) };
    const [clientA, clientB, clientNoOrders] = [await insertClient(t), await insertClient(t), await insertClient(t)];
    await assignOrderToClient(t, orders.a1.id, clientA);
    await assignOrderToClient(t, orders.a2.id, clientA);
    await assignOrderToClient(t, orders.b.id, clientB);
    keyA = await clientKeyFor(t, clientA);
    keyB = await clientKeyFor(t, clientB);
    keyNoOrders = await clientKeyFor(t, clientNoOrders);
    for (const [name, order] of Object.entries(orders)) {
      const leadId = await createLead(t, order);
      calls[name] = { leadId, ids: [await callIn(order, leadId, answered), await callIn(order, leadId, notAnswered)] };
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const all = (...names: string[]) => names.flatMap((n) => calls[n].ids).sort((x, y) => x - y);
  const everyOrder = () => Object.values(orders).map((o) => o.id);

  it("lists only calls of the client's orders: other orderIds add nothing, total counts only what it sees", async () => {
    expect(await listed(keyA, { orderIds: everyOrder() })).toEqual({ ids: all('a1', 'a2'), total: 4 });
    expect(await listed(keyA, { orderIds: [orders.a2.id, orders.b.id] })).toEqual({ ids: all('a2'), total: 2 });
    expect(await listed(keyB, { orderIds: everyOrder() })).toEqual({ ids: all('b'), total: 2 });
    // The same filter with an unrestricted key: every order.
    expect(await listed(t.apiKey, { orderIds: everyOrder() })).toEqual({ ids: all('a1', 'a2', 'b', 'own'), total: 8 });
  });

  it('filters and pages within the reach: statuses (counters), agents, leads, offsets', async () => {
    expect(await listed(keyA, { orderIds: everyOrder(), statusIds: [answered] })).toEqual({ ids: [calls.a1.ids[0], calls.a2.ids[0]], total: 2 });
    const page2 = (await get(keyA, '/v2/call/', { orderIds: everyOrder(), limit: 3, offset: 3 }).expect(200)).body.data;
    expect(page2).toEqual({ list: [expect.objectContaining({ id: all('a1', 'a2')[3] })], next: 4, total: 4 });
    const agentOf = async (callId: number) => (await t.ds.query(`SELECT user_id AS u FROM call WHERE id = $1`, [callId]))[0].u as number;
    const agents = [await agentOf(calls.a1.ids[0]), await agentOf(calls.b.ids[0])];
    expect(await listed(keyA, { orderIds: everyOrder(), userIds: agents })).toEqual({ ids: [calls.a1.ids[0]], total: 1 });
    const leads = Object.values(calls).map((c) => c.leadId);
    expect(await listed(keyA, { leadIds: leads })).toEqual({ ids: all('a1', 'a2'), total: 4 });
    expect(await listed(keyA, { leadIds: leads, orderIds: [orders.a1.id, orders.b.id] })).toEqual({ ids: all('a1'), total: 2 });
  });

  it('only other orders or leads: an empty page, total 0; a client without orders sees nothing', async () => {
    const empty = { list: [], next: 0, total: 0 };
    expect((await get(keyA, '/v2/call/', { orderIds: [orders.b.id, orders.own.id] }).expect(200)).body.data).toEqual(empty);
    expect((await get(keyA, '/v2/call/', { leadIds: [calls.b.leadId, calls.own.leadId] }).expect(200)).body.data).toEqual(empty);
    expect((await get(keyNoOrders, '/v2/call/', { orderIds: everyOrder() }).expect(200)).body.data).toEqual(empty);
    expect((await get(keyNoOrders, '/v2/call/', { leadIds: [calls.a1.leadId] }).expect(200)).body.data).toEqual(empty);
    // The input rules are the same for every key.
    const bad = await get(keyA, '/v2/call/').expect(400);
    expect(bad.body).toEqual((await get(t.apiKey, '/v2/call/').expect(400)).body);
  });

  it("detail: another client's call and an unrestricted order's call answer exactly like an unknown id", async () => {
    const unknown = answerWithoutId(await get(keyA, `/v2/call/detail/${UNKNOWN_CALL}/`), UNKNOWN_CALL);
    expect(unknown.status).toBe(404);
    for (const id of [calls.b.ids[0], calls.own.ids[1]]) {
      expect(answerWithoutId(await get(keyA, `/v2/call/detail/${id}/`), id)).toEqual(unknown);
    }
    expect(answerWithoutId(await get(keyNoOrders, `/v2/call/detail/${calls.a1.ids[0]}/`), calls.a1.ids[0])).toEqual(unknown);
    // The owner's key and an unrestricted key read them.
    const ofB = (await get(keyB, `/v2/call/detail/${calls.b.ids[0]}/`).expect(200)).body.data;
    expect(ofB).toMatchObject({ id: calls.b.ids[0], orderId: orders.b.id, leadId: calls.b.leadId });
    expect((await get(t.apiKey, `/v2/call/detail/${calls.b.ids[0]}/`).expect(200)).body.data).toEqual(ofB);
    expect((await get(keyA, `/v2/call/detail/${calls.a2.ids[1]}/`).expect(200)).body.data).toMatchObject({ orderId: orders.a2.id });
  });

  it('recording a call needs the telephony scope, which a client key never has: 403 and nothing stored', async () => {
    const before = (await t.ds.query(`SELECT count(*)::int AS n FROM call`))[0].n as number;
    const res = await request(t.http)
      .post('/v2/call/create/')
      .set('X-Api-Key', keyA)
      .send({ leadId: calls.a1.leadId, platformCallId: 'client-key', sipEndpointId: 1, statusId: answered, direction: 'outgoing' });
    expect(res.status).toBe(403);
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM call`))[0].n).toBe(before);
  });

  it('the call status catalogue is shared reference data: client keys read it like any key; changing it is admin', async () => {
    const catalogue = (await get(t.apiKey, '/v2/call-status/').expect(200)).body;
    expect((await get(keyA, '/v2/call-status/').expect(200)).body).toEqual(catalogue);
    expect((await get(keyA, `/v2/call-status/detail/${answered}/`).expect(200)).body.data).toMatchObject({ id: answered });
    await request(t.http).post('/v2/call-status/create/').set('X-Api-Key', keyA).send({}).expect(403);
  });

  it('an order moved to another client takes its calls along at once', async () => {
    const clientOfA2 = (await t.ds.query(`SELECT client_id AS c FROM call_order WHERE id = $1`, [orders.a2.id]))[0].c as number;
    const clientOfB = (await t.ds.query(`SELECT client_id AS c FROM call_order WHERE id = $1`, [orders.b.id]))[0].c as number;
    await assignOrderToClient(t, orders.a2.id, clientOfB);
    try {
      expect(await listed(keyA, { orderIds: everyOrder() })).toEqual({ ids: all('a1'), total: 2 });
      expect(await listed(keyB, { orderIds: everyOrder() })).toEqual({ ids: all('a2', 'b'), total: 4 });
      await get(keyA, `/v2/call/detail/${calls.a2.ids[0]}/`).expect(404);
      await get(keyB, `/v2/call/detail/${calls.a2.ids[0]}/`).expect(200);
    } finally {
      await assignOrderToClient(t, orders.a2.id, clientOfA2);
    }
  });
});
