import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { WebhookDispatcher } from '../src/modules/webhooks/webhook-dispatcher.worker';
import { answerWithoutId, assignOrderToClient, clientKeyFor, insertClient } from './factories/clients';
import { createLead, createLeadOrder, TestOrder } from './factories/leads';
import { eventually } from './support/fake-servers';
import { createTestApp, TestApp } from './support/test-app';

/** An in-process receiver on 127.0.0.1: keeps each request's body by path, answers 200. */
async function startReceiver() {
  const bodies = new Map<string, string[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      bodies.set(path, [...(bodies.get(path) ?? []), Buffer.concat(chunks).toString('utf8')]);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    /** The events received on `path`, as `type:orderId` (webhook.test: `webhook.test:webhookId`). */
    events: (path: string) =>
      (bodies.get(path) ?? []).map((b) => {
        const e = JSON.parse(b);
        return `${e.type}:${e.data.lead?.orderId ?? e.data.webhookId}`;
      }),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Webhooks with a client key: a webhook created with it is its client's, reached only with that
 * client's keys (anything else answers like an unknown id and changes nothing), and it receives only
 * events of its client's orders whatever its filters say. Unrestricted keys reach every webhook.
 */
describe('webhooks: client isolation', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let clientA: number;
  let clientB: number;
  let keyA: string;
  let otherKeyA: string;
  let keyB: string;
  let orders: Record<'a' | 'b' | 'own', TestOrder>;
  const UNKNOWN = 2_000_000_000;
  let paths = 0;
  const newPath = (what: string) => `/${what}-${++paths}`;

  const post = (key: string, path: string, body: object = {}) => request(t.http).post(path).set('X-Api-Key', key).send(body);
  const get = (key: string, path: string, query: Record<string, unknown> = {}) => request(t.http).get(path).query(query).set('X-Api-Key', key);
  async function createWebhook(key: string, body: Record<string, unknown> = {}): Promise<number> {
    const res = await post(key, '/v2/webhook/create/', { url: receiver.url(newPath('hook')), events: ['*'], ...body });
    expect(res.status).toBe(200);
    return res.body.data.id as number;
  }
  const webhookRow = async (id: number) => (await t.ds.query(`SELECT * FROM webhook WHERE id = $1`, [id]))[0] as Record<string, unknown> | undefined;
  const deliveryRows = async (webhookId: number) => t.ds.query(`SELECT * FROM webhook_delivery WHERE webhook_id = $1 ORDER BY id`, [webhookId]);
  const testEvents = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM event WHERE type = 'webhook.test'`))[0].n as number;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp({
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      ORDER_SETTINGS_CACHE_TTL_MS: '0',
    });
    orders = { a: await createLeadOrder(t), b: await createLeadOrder(t), own: await createLeadOrder(t) };
    [clientA, clientB] = [await insertClient(t), await insertClient(t)];
    await assignOrderToClient(t, orders.a.id, clientA);
    await assignOrderToClient(t, orders.b.id, clientB);
    [keyA, otherKeyA, keyB] = [await clientKeyFor(t, clientA), await clientKeyFor(t, clientA), await clientKeyFor(t, clientB)];
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it("a webhook created with a client key is its client's (clientId); an unrestricted key's has none", async () => {
    const ofA = await createWebhook(keyA, { description: 'CRM of A' });
    const own = await createWebhook(t.apiKey);
    const detail = (await get(keyA, `/v2/webhook/detail/${ofA}/`).expect(200)).body.data;
    expect(detail).toMatchObject({ id: ofA, clientId: clientA, description: 'CRM of A', orderIds: [] });
    // Every key of the client reaches it; an unrestricted key sees every webhook, with its client.
    expect((await get(otherKeyA, `/v2/webhook/detail/${ofA}/`).expect(200)).body.data).toEqual(detail);
    expect((await get(t.apiKey, `/v2/webhook/detail/${ofA}/`).expect(200)).body.data).toEqual(detail);
    expect((await get(t.apiKey, `/v2/webhook/detail/${own}/`).expect(200)).body.data.clientId).toBeNull();
    expect((await webhookRow(ofA))?.client_id).toBe(clientA);
  });

  it("orderIds naming another client's order or an unrestricted key's: the 400 of an order that does not exist; nothing stored", async () => {
    const before = (await t.ds.query(`SELECT count(*)::int AS n FROM webhook`))[0].n as number;
    const refusal = async (orderId: number) =>
      answerWithoutId(await post(keyA, '/v2/webhook/create/', { url: receiver.url('/refused'), events: ['*'], orderIds: [orderId] }), orderId);
    const unknown = await refusal(UNKNOWN);
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body).data.errors).toEqual([{ field: 'orderIds', message: 'unknown ids: <id>' }]);
    expect(await refusal(orders.b.id)).toEqual(unknown);
    expect(await refusal(orders.own.id)).toEqual(unknown);
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM webhook`))[0].n).toBe(before);

    const id = await createWebhook(keyA, { orderIds: [orders.a.id] });
    const row = await webhookRow(id);
    expect(answerWithoutId(await post(keyA, `/v2/webhook/update/${id}/`, { orderIds: [orders.b.id] }), orders.b.id)).toEqual(unknown);
    expect(await webhookRow(id)).toEqual(row);
    // The same order names fine with its own client's key.
    await createWebhook(keyB, { orderIds: [orders.b.id] });
  });

  it("lists only the client's webhooks, total included; an unrestricted key lists them all", async () => {
    const all = (await get(t.apiKey, '/v2/webhook/', { limit: 100 }).expect(200)).body.data;
    const ofA = all.list.filter((w: { clientId: number | null }) => w.clientId === clientA);
    expect(ofA.length).toBeGreaterThan(0);
    expect(all.list.some((w: { clientId: number | null }) => w.clientId === null)).toBe(true);
    expect((await get(keyA, '/v2/webhook/', { limit: 100 }).expect(200)).body.data).toEqual({ list: ofA, next: ofA.length, total: ofA.length });
    const paged = (await get(otherKeyA, '/v2/webhook/', { limit: 1, offset: ofA.length - 1 }).expect(200)).body.data;
    expect(paged).toEqual({ list: [ofA[ofA.length - 1]], next: ofA.length, total: ofA.length });
  });

  it("another client's webhook and an unrestricted key's: every operation answers like an unknown id and changes nothing", async () => {
    const ofB = await createWebhook(keyB);
    const own = await createWebhook(t.apiKey);
    const operations: [string, (id: number) => request.Test][] = [
      ['detail', (id) => get(keyA, `/v2/webhook/detail/${id}/`)],
      ['update', (id) => post(keyA, `/v2/webhook/update/${id}/`, { description: 'taken over', isActive: false })],
      ['rotate-secret', (id) => post(keyA, `/v2/webhook/rotate-secret/${id}/`)],
      ['test', (id) => post(keyA, `/v2/webhook/test/${id}/`)],
      ['delete', (id) => post(keyA, `/v2/webhook/delete/${id}/`)],
    ];
    for (const [name, call] of operations) {
      const unknown = answerWithoutId(await call(UNKNOWN), UNKNOWN);
      expect({ name, status: unknown.status }).toEqual({ name, status: 404 });
      for (const id of [ofB, own]) {
        const [row, tests] = [await webhookRow(id), await testEvents()];
        expect({ name, answer: answerWithoutId(await call(id), id) }).toEqual({ name, answer: unknown });
        expect({ name, row: await webhookRow(id), tests: await testEvents() }).toEqual({ name, row, tests });
      }
    }
    // Client B's keys do all of it.
    await post(keyB, `/v2/webhook/update/${ofB}/`, { description: 'B renamed' }).expect(200);
    expect((await get(keyB, `/v2/webhook/detail/${ofB}/`).expect(200)).body.data.description).toBe('B renamed');
    const secret = (await webhookRow(ofB))?.secret;
    await post(keyB, `/v2/webhook/rotate-secret/${ofB}/`).expect(200);
    expect((await webhookRow(ofB))?.previous_secret).toBe(secret);
    const tests = await testEvents();
    await post(keyB, `/v2/webhook/test/${ofB}/`).expect(200);
    expect(await testEvents()).toBe(tests + 1);
    await post(keyB, `/v2/webhook/delete/${ofB}/`).expect(200);
    expect(await webhookRow(ofB)).toBeUndefined();
  });

  it("deliveries: a client key lists and redelivers only its client's webhooks' deliveries", async () => {
    const ofA = await createWebhook(keyA, { orderIds: [orders.a.id] });
    const ofB = await createWebhook(keyB, { orderIds: [orders.b.id] });
    await createLead(t, orders.a);
    await createLead(t, orders.b);
    const delivered = async (id: number) => (await deliveryRows(id)).filter((d: { status: string }) => d.status === 'delivered');
    await eventually(async () => (await delivered(ofA)).length === 1 && (await delivered(ofB)).length === 1);

    const listed = async (key: string, query: Record<string, unknown> = {}) =>
      (await get(key, '/v2/webhook/delivery/', { limit: 100, ...query }).expect(200)).body.data as { list: { webhookId: number }[]; total: number };
    const ofAsWebhooks = (await t.ds.query(`SELECT id FROM webhook WHERE client_id = $1`, [clientA])).map((r: { id: number }) => r.id);
    const seenByA = await listed(keyA);
    expect(seenByA.total).toBe(seenByA.list.length);
    expect(seenByA.list.every((d) => ofAsWebhooks.includes(d.webhookId))).toBe(true);
    expect(seenByA.list.some((d) => d.webhookId === ofA)).toBe(true);
    expect(await listed(keyA, { webhookId: ofB })).toEqual({ list: [], next: 0, total: 0 });
    expect((await listed(keyB, { webhookId: ofB })).total).toBe(1);
    expect((await listed(t.apiKey)).total).toBeGreaterThan(seenByA.total);

    const [deliveryOfB] = await deliveryRows(ofB);
    const unknown = answerWithoutId(await post(keyA, `/v2/webhook/redeliver/${UNKNOWN}/`), UNKNOWN);
    expect(unknown.status).toBe(404);
    expect(answerWithoutId(await post(keyA, `/v2/webhook/redeliver/${deliveryOfB.id}/`), Number(deliveryOfB.id))).toEqual(unknown);
    expect(await deliveryRows(ofB)).toEqual([deliveryOfB]);
    await post(keyB, `/v2/webhook/redeliver/${deliveryOfB.id}/`).expect(200);
    expect((await deliveryRows(ofB))[0].updated_at).not.toEqual(deliveryOfB.updated_at);
  });

  it("a client's webhook receives only events of its client's orders, whatever its filters say", async () => {
    const everything = newPath('a-everything');
    const named = newPath('a-named');
    const unrestricted = newPath('own-everything');
    await createWebhook(keyA, { url: receiver.url(everything) });
    const namedId = await createWebhook(keyA, { url: receiver.url(named), orderIds: [orders.a.id] });
    // An unrestricted key may name any existing order on it: the dispatcher still keeps it to client A's.
    await post(t.apiKey, `/v2/webhook/update/${namedId}/`, { orderIds: [orders.a.id, orders.b.id, orders.own.id] }).expect(200);
    await createWebhook(t.apiKey, { url: receiver.url(unrestricted) });

    for (const order of [orders.a, orders.b, orders.own]) await createLead(t, order);
    await eventually(() => receiver.events(unrestricted).length >= 3, 15_000, 'the unrestricted webhook to receive every lead');
    await t.app.get(WebhookDispatcher).dispatchAll();
    await new Promise((r) => setTimeout(r, 300)); // anything extra would have arrived by now
    const created = (order: TestOrder) => `lead.created:${order.id}`;
    expect(receiver.events(unrestricted).sort()).toEqual([created(orders.a), created(orders.b), created(orders.own)].sort());
    expect(receiver.events(everything)).toEqual([created(orders.a)]);
    expect(receiver.events(named)).toEqual([created(orders.a)]);

    // The order moves to client A: its events go to A's webhooks from then on.
    await assignOrderToClient(t, orders.b.id, clientA);
    try {
      await createLead(t, orders.b);
      await eventually(() => receiver.events(everything).length >= 3, 15_000, "client A's webhook to receive the moved order's lead");
      // The move itself is an order.updated of an order that is now A's.
      expect(receiver.events(everything)).toEqual([created(orders.a), 'order.updated:undefined', created(orders.b)]);
    } finally {
      await assignOrderToClient(t, orders.b.id, clientB);
    }
  });
});
