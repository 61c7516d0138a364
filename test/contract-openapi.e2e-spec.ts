import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type { App } from 'supertest/types';
import { bodyLimitFor } from '../src/common/body-limits';
import { verifyWebhook } from '../clients/typescript/src';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { ContractLedger } from './support/contract-ledger';
import { eventually } from './support/fake-servers';
import {
  type ContractDoc,
  deref,
  type OperationRef,
  operationsOf,
  parameterExample,
  requestBodyOf,
  schemaValidator,
  wronglyTypedBody,
} from './support/openapi-contract';
import { createSiblingApp, createTestApp, TestApp } from './support/test-app';

const MISSING_ID = 999_999_999;
const MISSING_UUID = '00000000-0000-4000-8000-000000000000';
const asText = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

interface Call {
  key?: string;
  path?: (name: string, example: unknown) => unknown;
  query?: 'examples' | 'required';
  body?: unknown;
  raw?: string;
  idempotencyKey?: string;
  ifNoneMatch?: string;
  http?: App;
}

/**
 * Contract tests generated from the served document: every operation called on the demo dataset as
 * documented and once per answer it can be made to give (304, 400, 401, 403, 404, 409, 413, 429);
 * each answer's status, body and declared headers checked against the document (contract-ledger.ts).
 */
describe('contract: every operation of /docs-json on the demo dataset', () => {
  let t: TestApp;
  let doc: ContractDoc;
  let ops: OperationRef[];
  let ledger: ContractLedger;
  let idempotencyKeys = 0;
  const deliveries: { headers: IncomingHttpHeaders; body: string }[] = [];
  let receiver: Server;
  let webhookSecret: string;

  beforeAll(async () => {
    // Every event the run causes is delivered here, to be checked against the document's webhooks.
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    t = await createTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '50' });
    await t.app.get(DemoSeeder).run();
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/contract`;
    webhookSecret = (
      await request(t.http)
        .post('/v2/webhook/create')
        .set('X-Api-Key', t.apiKey)
        .send({ url, events: ['*'] })
        .expect(200)
    ).body.data.secret;
    doc = (await request(t.http).get('/docs-json').expect(200)).body as ContractDoc;
    ops = operationsOf(doc);
    ledger = new ContractLedger(doc, schemaValidator(doc));
  });
  afterAll(async () => {
    if (ledger) console.log(ledger.report(ops.length));
    await t?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const secured = (ref: OperationRef) => (ref.op.security ?? doc.security ?? []).length > 0;
  const hasIdempotencyKey = (ref: OperationRef) => ref.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');

  function urlOf(ref: OperationRef, call: Call): string {
    let url = ref.path;
    const query: string[] = [];
    for (const p of ref.parameters) {
      const example = parameterExample(doc, p);
      if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(asText(call.path ? call.path(p.name, example) : example)));
      const wanted = call.query === 'examples' ? example !== undefined : p.required;
      if (p.in === 'query' && wanted && example !== undefined) {
        for (const v of [example].flat()) query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(asText(v))}`);
      }
    }
    return query.length ? `${url}?${query.join('&')}` : url;
  }

  async function send(ref: OperationRef, call: Call) {
    const url = urlOf(ref, call);
    let req = request(call.http ?? t.http)[ref.method as 'get' | 'post'](url);
    if (call.key) req = req.set('X-Api-Key', call.key);
    if (call.idempotencyKey) req = req.set('Idempotency-Key', call.idempotencyKey);
    if (call.ifNoneMatch) req = req.set('If-None-Match', call.ifNoneMatch);
    if (call.raw !== undefined) req = req.set('Content-Type', 'application/json').send(call.raw);
    else if (call.body !== undefined) req = req.send(call.body as object);
    return { url, res: await req };
  }

  async function run(check: string, ref: OperationRef, call: Call, expected?: number) {
    const { url, res } = await send(ref, call);
    ledger.check(check, ref, `${ref.method.toUpperCase()} ${url}`, res, expected);
    return res;
  }

  it('covers every operation of the document', () => {
    expect(ops.length).toBeGreaterThanOrEqual(60);
    const ids = ops.map((ref) => ref.op.operationId);
    expect(ids.filter((id, i) => !id || ids.indexOf(id) !== i)).toEqual([]);
  });

  it('401 without a key, for every secured operation', async () => {
    for (const ref of ops.filter(secured)) await run('401', ref, { query: 'examples', body: requestBodyOf(doc, ref.op)?.body }, 401);
    expect(ledger.of('401')).toEqual([]);
  });

  it('403 for a key without the scope, for every secured operation (a body of the wrong types, so a permitted call changes nothing)', async () => {
    const telephonyOnly = await t.keyWith('telephony');
    for (const ref of ops.filter(secured)) {
      const body = requestBodyOf(doc, ref.op);
      await run('403', ref, { key: telephonyOnly, query: 'examples', body: body ? wronglyTypedBody(doc, body.schema) : undefined }, 403);
    }
    expect(ledger.of('403')).toEqual([]);
  });

  it('404 for every operation with a path parameter, naming a record that does not exist', async () => {
    const missing = (name: string, example: unknown) =>
      typeof example === 'string' && !/^\d+$/.test(example) ? MISSING_UUID : name === 'jobId' ? MISSING_UUID : MISSING_ID;
    for (const ref of ops.filter((r) => r.parameters.some((p) => p.in === 'path'))) {
      await run('404', ref, { key: t.apiKey, path: missing, query: 'required', body: requestBodyOf(doc, ref.op)?.body }, 404);
    }
    expect(ledger.of('404')).toEqual([]);
  });

  it('400 for a body of the wrong types, a malformed path id or an out-of-range limit', async () => {
    for (const ref of ops) {
      const body = requestBodyOf(doc, ref.op);
      const integerPath = ref.parameters.find((p) => p.in === 'path' && [deref(doc, p.schema ?? {}).type].flat().includes('integer'));
      const limit = ref.parameters.find((p) => p.in === 'query' && p.name === 'limit');
      if (body) await run('400', ref, { key: t.apiKey, query: 'required', body: wronglyTypedBody(doc, body.schema) }, 400);
      else if (integerPath)
        await run('400', ref, { key: t.apiKey, query: 'required', path: (name, example) => (name === integerPath.name ? 'abc' : example) }, 400);
      else if (limit)
        await run(
          '400',
          { ...ref, parameters: [...ref.parameters.filter((p) => p !== limit), { ...limit, required: true, example: 100_000 }] },
          { key: t.apiKey, query: 'required' },
          400,
        );
    }
    expect(ledger.of('400')).toEqual([]);
  });

  it('413 for a body above the route limit, for every operation with a body', async () => {
    for (const ref of ops.filter((r) => requestBodyOf(doc, r.op))) {
      const url = urlOf(ref, { query: 'required' });
      const raw = JSON.stringify({ pad: 'x'.repeat(bodyLimitFor(url.split('?')[0]) + 1) });
      await run('413', ref, { key: t.apiKey, query: 'required', raw }, 413);
    }
    expect(ledger.of('413')).toEqual([]);
  });

  it('429 once the key has spent its budget, for every secured operation', async () => {
    let limited: NestExpressApplication | undefined;
    try {
      limited = await createSiblingApp(t, { rateLimitRequests: 1, rateLimitWindowSeconds: 86400 });
      const http = limited.getHttpServer() as App;
      const key = await t.keyWith('api', 'admin', 'telephony');
      const first = ops.find((r) => r.path === '/v2/order' && r.method === 'get') ?? ops.filter(secured)[0];
      await run('429', first, { key, http, query: 'examples' }, 200);
      for (const ref of ops.filter(secured)) await run('429', ref, { key, http, query: 'examples', body: requestBodyOf(doc, ref.op)?.body }, 429);
    } finally {
      await limited?.close();
    }
    expect(ledger.of('429')).toEqual([]);
  });

  /** Reads first, then creates, then changes; revoking a key last (it must not be the key in use). */
  const rank = (ref: OperationRef) =>
    ref.method === 'get' ? (ref.parameters.some((p) => p.name === 'jobId') ? 3 : 0) : /\/create/.test(ref.path) ? 1 : /\/revoke\//.test(ref.path) ? 4 : 2;

  it('2xx for every documented example, 304 for a GET repeated with its ETag, 409 for a reused Idempotency-Key with another body', async () => {
    let jobId: string | undefined;
    for (const ref of [...ops].sort((a, b) => rank(a) - rank(b))) {
      const body = requestBodyOf(doc, ref.op)?.body;
      const path = (name: string, example: unknown) => (name === 'jobId' && jobId ? jobId : example);
      const idempotencyKey = hasIdempotencyKey(ref) ? `contract-${++idempotencyKeys}-${Date.now()}` : undefined;
      const call: Call = { key: t.apiKey, query: 'examples', path, body, idempotencyKey };
      const res = await run('2xx', ref, call);
      if (res.status >= 300)
        ledger.findings.push({
          check: '2xx',
          operation: ContractLedger.label(ref),
          request: ref.path,
          status: res.status,
          problems: [JSON.stringify(res.body)],
        });
      if (typeof res.headers['x-job-id'] === 'string') jobId = res.headers['x-job-id'];
      if (ref.method === 'get' && res.status === 200 && typeof res.headers.etag === 'string')
        await run('304', ref, { ...call, ifNoneMatch: res.headers.etag }, 304);
      if (!idempotencyKey || res.status >= 300) continue;
      await run('409', ref, call, res.status);
      const other = typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body, contractProbe: 1 } : [body, 1];
      await run('409', ref, { ...call, body: other }, 409);
    }
    expect(ledger.of('2xx')).toEqual([]);
    expect(ledger.of('304')).toEqual([]);
    expect(ledger.of('409')).toEqual([]);
  });

  it('delivers every event the run caused as the webhooks of the document describe it, signed as documented', async () => {
    let seen = -1;
    // Deliveries settle when a second passes without a new one.
    await eventually(
      async () => {
        const settled = deliveries.length > 0 && deliveries.length === seen;
        seen = deliveries.length;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        return settled;
      },
      30_000,
      'webhook deliveries to settle',
    );
    for (const d of deliveries) ledger.checkDelivery(d.headers, d.body);
    const types = new Set(deliveries.map((d) => (JSON.parse(d.body) as { type: string }).type));
    console.log(`webhooks: ${deliveries.length} deliveries of ${[...types].sort().join(', ')}`);
    expect(types.has('lead.created')).toBe(true);
    const unverified = deliveries.filter((d) => {
      try {
        verifyWebhook(webhookSecret, d.body, d.headers);
        return false;
      } catch {
        return true;
      }
    });
    expect(unverified.map((d) => d.headers['webhook-id'])).toEqual([]);
    expect(ledger.of('webhook')).toEqual([]);
  });

  it('reports every status it drew from each targeted check', () => {
    const statuses = Object.keys(ledger.responses).map(Number);
    expect(statuses).toEqual(expect.arrayContaining([200, 304, 400, 401, 403, 404, 409, 413, 429]));
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});
