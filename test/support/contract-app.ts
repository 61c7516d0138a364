import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DemoSeeder } from '../../src/database/seed/demo-seeder';
import type { ContractDoc } from './openapi-contract';
import { createTestApp, type TestApp } from './test-app';

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ContractApp {
  t: TestApp;
  /** The document the app serves at /docs-json. */
  doc: ContractDoc;
  /** Every webhook delivery the run causes, as received. */
  deliveries: Delivery[];
  webhookSecret: string;
  close(): Promise<void>;
}

/**
 * The app of a contract run: the demo dataset, and a webhook subscribed to every event whose
 * deliveries an in-process receiver on 127.0.0.1 keeps (the document's webhook examples name it).
 */
export async function startContractApp(): Promise<ContractApp> {
  const deliveries: Delivery[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const closeReceiver = () => new Promise<void>((resolve) => receiver.close(() => resolve()));
  let t: TestApp | undefined;
  try {
    t = await createTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '50' });
    await t.app.get(DemoSeeder).run();
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/contract`;
    const created = await request(t.http)
      .post('/v2/webhook/create')
      .set('X-Api-Key', t.apiKey)
      .send({ url, events: ['*'] })
      .expect(200);
    const doc = (await request(t.http).get('/docs-json').expect(200)).body as ContractDoc;
    const app = t;
    const close = async () => {
      await app.close();
      await closeReceiver();
    };
    return { t, doc, deliveries, webhookSecret: created.body.data.secret, close };
  } catch (err) {
    await t?.close();
    await closeReceiver();
    throw err;
  }
}
