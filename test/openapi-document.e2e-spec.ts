import request from 'supertest';
import { EVENT_TYPES } from '../src/modules/events/domain/event';
import { OPERATION_IDS } from '../src/common/openapi/operation-ids';
import { type OpenApiDoc, type Operation, operationsOf, responseValidator } from './support/openapi-doc';
import type { App } from 'supertest/types';
import { loadConfig } from '../src/config/app.config';
import { createSiblingApp, createTestApp, TestApp } from './support/test-app';

/** What an SDK generator reads from /docs-json: 3.1, method names, shared envelopes, headers, webhooks, valid examples. */
describe('the OpenAPI document as an SDK generator reads it', () => {
  let t: TestApp;
  let doc: OpenApiDoc;

  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
    doc = (await request(t.http).get('/docs-json').set('Host', 'api.callcenter.test:8443').set('X-Forwarded-Proto', 'https').expect(200)).body as OpenApiDoc;
  });
  afterAll(async () => {
    await t.close();
  });

  it('is OpenAPI 3.1 whose servers is relative, whatever Host or X-Forwarded-Host fetched it', async () => {
    expect((doc as unknown as { openapi: string }).openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/', description: 'the host that served this document' }]);
    const proxied = (await request(t.http).get('/docs-json').set('X-Forwarded-Host', 'crm-gateway.test').set('X-Forwarded-Proto', 'https')).body as OpenApiDoc;
    expect(proxied.servers).toEqual(doc.servers);
  });

  it('names PUBLIC_URL in servers when the deployment sets it', async () => {
    const config = loadConfig({ WORKERS: '0', PUBLIC_URL: 'https://api.callcenter.test/' });
    const app = await createSiblingApp(t, { publicUrl: config.publicUrl });
    try {
      const served = (
        await request(app.getHttpServer() as App)
          .get('/docs-json')
          .set('Host', '10.0.0.5:3000')
          .expect(200)
      ).body as OpenApiDoc;
      expect(served.servers).toEqual([{ url: 'https://api.callcenter.test', description: 'this deployment' }]);
    } finally {
      await app.close();
    }
    expect(() => loadConfig({ PUBLIC_URL: 'api.callcenter.test' })).toThrow(/PUBLIC_URL/);
  });

  it('gives every operation the operationId of the table: unique, camelCase, stable', () => {
    const ops = operationsOf(doc).map(({ method, path, op }) => ({ key: `${method.toUpperCase()} ${path}`, id: op.operationId }));
    expect(ops.filter(({ key }) => !(key in OPERATION_IDS)).map(({ key }) => `add ${key} to OPERATION_IDS`)).toEqual([]);
    expect(ops.filter(({ key, id }) => OPERATION_IDS[key] !== id)).toEqual([]);
    expect(new Set(ops.map((o) => o.id)).size).toBe(ops.length);
    expect(ops.filter(({ id }) => !/^[a-z][a-zA-Z0-9]*$/.test(id))).toEqual([]);
    expect(doc.paths['/v2/order'].get.operationId).toBe('listOrders');
    expect(doc.paths['/v2/lead/create-async'].post.operationId).toBe('createLeadAsync');
    expect(doc.paths['/v1/lead/detail/{lead_id}'].get.operationId).toBe('getLeadV1');
  });

  it('declares every tag it uses, each with a description', () => {
    const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]));
    const used = new Set(operationsOf(doc).flatMap(({ op }) => op.tags ?? []));
    expect([...used].filter((tag) => !declared.has(tag))).toEqual([]);
    expect([...declared].filter(([, description]) => !description).map(([name]) => name)).toEqual([]);
  });

  it('refers every failure to the one ErrorEnvelope and every page to the list wrapper of its item type', () => {
    const inline: string[] = [];
    for (const { method, path, op } of operationsOf(doc)) {
      for (const [status, response] of Object.entries(op.responses)) {
        const schema = response.content?.['application/json']?.schema;
        if (schema && !schema.$ref) inline.push(`${method} ${path} ${status}`);
        if (Number(status) >= 400 && schema && path !== '/v1/health/check')
          expect({ path, status, ref: schema.$ref }).toEqual({ path, status, ref: '#/components/schemas/ErrorEnvelope' });
      }
    }
    // The health check's map is the one data shape written inline (it has no class of its own).
    expect(inline).toEqual(['get /v1/health/check 200', 'get /v1/health/check 503']);
    expect(doc.paths['/v2/order'].get.responses['200'].content!['application/json'].schema).toEqual({
      $ref: '#/components/schemas/OrderListItemViewListEnvelope',
    });
    expect(doc.components.schemas.ErrorEnvelope.properties!.data).toEqual({
      oneOf: [{ $ref: '#/components/schemas/FieldErrors' }, { $ref: '#/components/schemas/EmptyArray' }],
    });
  });

  it('declares the headers each answer carries, and the 304 a GET gives to its own ETag', async () => {
    const order = doc.paths['/v2/order'].get;
    expect(Object.keys(order.responses['200'].headers!)).toEqual(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'ETag']);
    expect(Object.keys(order.responses['429'].headers!)).toEqual(expect.arrayContaining(['Retry-After', 'X-Request-Id']));
    expect(Object.keys(doc.paths['/v2/lead/create'].post.responses['200'].headers!)).toEqual(expect.arrayContaining(['Idempotent-Replayed']));
    expect(Object.keys(doc.paths['/v2/lead/create-async'].post.responses['200'].headers!)).toEqual(expect.arrayContaining(['X-Job-Id']));

    const first = await request(t.http).get('/v2/order').set('X-Api-Key', t.apiKey).expect(200);
    expect(first.headers['x-request-id']).toEqual(expect.any(String));
    const again = await request(t.http).get('/v2/order').set('X-Api-Key', t.apiKey).set('If-None-Match', first.headers.etag);
    expect(again.status).toBe(304);
    expect(order.responses['304']).toBeDefined();
  });

  it('describes each delivered event in webhooks, with the Standard Webhooks headers and a typed body', () => {
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([...EVENT_TYPES].sort());
    for (const [type, { post }] of Object.entries(doc.webhooks!)) {
      expect((post.parameters ?? []).map((p) => `${p.in}:${p.name}`)).toEqual(['header:webhook-id', 'header:webhook-timestamp', 'header:webhook-signature']);
      const ref = post.requestBody!.content['application/json'].schema!.$ref!;
      const body = doc.components.schemas[ref.split('/').pop()!];
      expect({ type, const: body.properties!.type.const }).toEqual({ type, const: type });
    }
  });

  it('puts no default in a request schema: an update keeps what is left out, and a generator would make the field required', () => {
    const seen = new Set<string>();
    const defaults: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
      if (typeof node !== 'object' || node === null) return;
      const { $ref } = node as { $ref?: string };
      if ($ref) {
        if (seen.has($ref)) return;
        seen.add($ref);
        return walk(doc.components.schemas[$ref.split('/').pop()!], $ref);
      }
      if ('default' in node) defaults.push(where);
      for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples') walk(value, `${where}/${key}`);
    };
    const bodies = operationsOf(doc).filter(({ op }) => op.requestBody);
    for (const { method, path, op } of bodies) walk(op.requestBody!.content['application/json']?.schema, `${method} ${path}`);
    expect(bodies.length).toBeGreaterThan(30);
    expect(seen.has('#/components/schemas/UpdateUserDto')).toBe(true);
    expect(defaults).toEqual([]);
  });

  it('types event data per type, told apart by the discriminator on type', () => {
    const list = doc.components.schemas.EventFeedView.properties!.list.items!;
    expect(list.discriminator).toEqual({
      propertyName: 'type',
      mapping: expect.objectContaining({ 'lead.created': '#/components/schemas/LeadCreatedFeedEvent' }),
    });
    expect(list.oneOf).toHaveLength(EVENT_TYPES.length);
  });

  /** Each request example and 2xx response example (operations and webhooks), validated against its schema. */
  it('has an example valid against its schema for every body and every 2xx JSON answer', () => {
    const validatorFor = responseValidator(doc);
    const problems: unknown[] = [];
    const check = (where: string, media: { schema?: OpenApiDoc['components']['schemas'][string]; example?: unknown } | undefined) => {
      if (!media?.schema) return;
      if (media.example === undefined) return problems.push(`${where}: no example`);
      const validate = validatorFor(media.schema);
      if (!validate(media.example)) problems.push({ where, errors: validate.errors });
    };
    const all: [string, Operation][] = [
      ...operationsOf(doc).map(({ method, path, op }): [string, Operation] => [`${method} ${path}`, op]),
      ...Object.entries(doc.webhooks ?? {}).map(([type, { post }]): [string, Operation] => [`webhook ${type}`, post]),
    ];
    let checked = 0;
    for (const [where, op] of all) {
      if (op.requestBody) {
        check(`${where} request`, op.requestBody.content['application/json']);
        checked++;
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (!status.startsWith('2') || !response.content?.['application/json']) continue;
        check(`${where} ${status}`, response.content['application/json']);
        checked++;
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});
