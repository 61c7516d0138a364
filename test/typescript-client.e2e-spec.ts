import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCallCenterClient, type CallCenterClient, verifyWebhook, WebhookVerificationError } from '../clients/typescript/src';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { eventually } from './support/fake-servers';
import { createTestApp, TestApp } from './support/test-app';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/** An in-process HTTP receiver on 127.0.0.1 keeping each delivery's raw body and headers. */
async function startReceiver() {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The demo dataset driven through clients/typescript over real HTTP, as an integrator's code would. */
describe('the TypeScript client on the demo dataset', () => {
  let t: TestApp;
  let client: CallCenterClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '50' });
    await t.app.get(DemoSeeder).run();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    client = createCallCenterClient({ baseUrl: `http://127.0.0.1:${port}/`, apiKey: t.apiKey });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('creates a lead and reads it back, and says whether it may be called now', async () => {
    const phone = `+7916${String(Date.now()).slice(-7)}`;
    const created = await client.POST('/v2/lead/create', {
      body: { leadType: 'straight', phone, orderId: 1, orderCode: 'novostroyki-moskvy', name: 'Client test' },
    });
    expect(created.response.status).toBe(200);
    const id = created.data!.data.id;
    expect(id).toBeGreaterThan(0);

    const read = await client.GET('/v2/lead/detail/{leadId}', { params: { path: { leadId: id } } });
    expect(read.error).toBeUndefined();
    expect(read.data!.data).toMatchObject({ id, phone, orderId: 1, name: 'Client test' });

    const callable = await client.GET('/v2/lead/callable/{leadId}', { params: { path: { leadId: id } } });
    expect(callable.response.status).toBe(200);
    const { callableNow, reasons } = callable.data!.data;
    expect(callableNow).toBe(reasons.length === 0);

    const missing = await client.GET('/v2/lead/detail/{leadId}', { params: { path: { leadId: 999_999_999 } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ success: false });
  });

  it('pages a list with offset, limit and next until total', async () => {
    const ids: number[] = [];
    let total = -1;
    for (let offset = 0; total < 0 || offset < total;) {
      const page = await client.GET('/v2/order', { params: { query: { offset, limit: 2 } } });
      expect(page.response.status).toBe(200);
      const { list, next } = page.data!.data;
      total = page.data!.data.total;
      expect(list.length).toBeLessThanOrEqual(2);
      ids.push(...list.map((order) => order.id));
      expect(next).toBe(offset + list.length);
      if (list.length === 0) break;
      offset = next;
    }
    expect(total).toBeGreaterThanOrEqual(5);
    expect(ids).toHaveLength(total);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('receives a signed test delivery that verifyWebhook accepts, and refuses it with another secret', async () => {
    const created = await client.POST('/v2/webhook/create', { body: { url: receiver.url, events: ['*'], isActive: true } });
    expect(created.response.status).toBe(200);
    const { id, secret } = created.data!.data;
    const sent = await client.POST('/v2/webhook/test/{webhookId}', { params: { path: { webhookId: id } } });
    expect(sent.response.status).toBe(200);

    // Other events of the run may arrive too: the test event is the one with its type.
    const delivery = await eventually(() => receiver.deliveries.find((d) => d.body.includes('"webhook.test"')), 15_000, 'the test delivery');
    const event = verifyWebhook(secret, delivery.body, delivery.headers);
    if (event.type !== 'webhook.test') throw new Error(`a ${event.type} delivery`);
    expect(event).toMatchObject({ id: delivery.headers['webhook-id'], type: 'webhook.test', data: { webhookId: id } });
    const other = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(() => verifyWebhook(other, delivery.body, delivery.headers)).toThrow(WebhookVerificationError);
  });
});
