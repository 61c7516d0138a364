import request from 'supertest';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { type OpenApiDoc, type Operation, operationsOf, responseValidator } from './support/openapi-doc';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Every operation's "Try it out" default, run as Swagger UI would build it (path and query examples,
 * the request body's example) against the demo dataset with an all-scopes key:
 * each answers 2xx, and each answer matches the response schema the document gives for its status.
 */
describe('OpenAPI examples on the demo dataset', () => {
  let t: TestApp;
  let doc: OpenApiDoc;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.get(DemoSeeder).run();
    doc = (await request(t.http).get('/docs-json').expect(200)).body as OpenApiDoc;
  });
  afterAll(async () => {
    await t.close();
  });

  /** Reads first, then creates, then changes; revoking a key last (it must not be the key in use). */
  const rank = (method: string, path: string) =>
    method === 'get' ? (path.includes('create-async') ? 3 : 0) : path.includes('/create') ? 1 : path.includes('/revoke/') ? 4 : 2;

  function buildUrl(path: string, op: Operation, jobId: string | undefined): string {
    let url = path;
    const query: string[] = [];
    for (const p of op.parameters ?? []) {
      const value = p.name === 'jobId' ? jobId : (p.example ?? p.schema?.example);
      if (p.in === 'path') {
        // No example: the request goes out with the placeholder and fails, naming the operation.
        url = url.replace(`{${p.name}}`, encodeURIComponent(typeof value === 'string' || typeof value === 'number' ? value : `no-example-for-${p.name}`));
      } else if (p.in === 'query' && value !== undefined) {
        for (const v of Array.isArray(value) ? value : [value]) query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(String(v))}`);
      }
    }
    return query.length ? `${url}?${query.join('&')}` : url;
  }

  it('documents every operation with a 2xx response and an example that succeeds', async () => {
    const validatorFor = responseValidator(doc);
    const ops = operationsOf(doc).sort((a, b) => rank(a.method, a.path) - rank(b.method, b.path));
    expect(ops.length).toBeGreaterThanOrEqual(60);
    let jobId: string | undefined;
    const outcomes: { op: string; status: number; problems: unknown }[] = [];
    for (const { path, method, op } of ops) {
      const url = buildUrl(path, op, jobId);
      const body = op.requestBody?.content['application/json']?.example;
      const req =
        method === 'get'
          ? request(t.http).get(url)
          : request(t.http)
              .post(url)
              .send(body as object);
      const res = await req.set('X-Api-Key', t.apiKey);
      if (path === '/v2/lead/create-async') jobId = res.headers['x-job-id'];
      const documented = op.responses[String(res.status)];
      const schema = documented?.content?.['application/json']?.schema;
      let problems: unknown = documented ? null : 'status not documented';
      if (schema) {
        const validate = validatorFor(schema);
        if (!validate(res.body)) problems = validate.errors;
      }
      outcomes.push({ op: `${method.toUpperCase()} ${url}`, status: res.status, problems: res.status < 300 ? problems : res.body });
    }
    expect(outcomes.filter((o) => o.status >= 300 || o.problems !== null)).toEqual([]);
  });

  it('documents the failure envelopes and validates one of each against its schema', async () => {
    const validatorFor = responseValidator(doc);
    const check = (status: number, path: string, method: 'get' | 'post', res: request.Response) => {
      expect(res.status).toBe(status);
      const schema = doc.paths[path][method].responses[String(status)]?.content?.['application/json']?.schema;
      expect({ path, status, documented: !!schema }).toEqual({ path, status, documented: true });
      const validate = validatorFor(schema!);
      expect(validate(res.body) ? null : validate.errors).toBeNull();
    };
    check(401, '/v2/order', 'get', await request(t.http).get('/v2/order'));
    const telephonyOnly = await t.keyWith('telephony');
    check(403, '/v2/order', 'get', await request(t.http).get('/v2/order').set('X-Api-Key', telephonyOnly));
    check(404, '/v2/order/detail/{orderId}', 'get', await request(t.http).get('/v2/order/detail/999999').set('X-Api-Key', t.apiKey));
    check(400, '/v2/lead/create', 'post', await request(t.http).post('/v2/lead/create').set('X-Api-Key', t.apiKey).send({ phone: 'x' }));
    // Codes are unique within a client: the code of an order of the example's client.
    const example = doc.paths['/v2/order/create'].post.requestBody!.content['application/json'].example as { clientId?: number | null };
    const orders = (await request(t.http).get('/v2/order/?limit=100').set('X-Api-Key', t.apiKey)).body.data.list as { code: string; clientId: number | null }[];
    const taken = orders.find((o) => o.clientId === (example.clientId ?? null))!.code;
    const dup = await request(t.http)
      .post('/v2/order/create')
      .set('X-Api-Key', t.apiKey)
      .send({ ...example, code: taken });
    check(409, '/v2/order/create', 'post', dup);
  });

  it('states a description and the key errors per operation, integer ids, limit and offset; public probes without security; tags in reading order', () => {
    for (const { path, op } of operationsOf(doc)) {
      // A description of its own (what it refuses), not only the body-limit note every body gets.
      const ownText = (op.description ?? '').replace(/\n*Body limit: .*$/s, '').trim();
      expect({ path, summary: !!op.summary, description: ownText.length > 0 }).toEqual({ path, summary: true, description: true });
      const statuses = Object.keys(op.responses);
      if (op.security?.length !== 0) expect({ path, statuses }).toEqual({ path, statuses: expect.arrayContaining(['401', '429', '503']) });
      for (const p of op.parameters ?? []) {
        if (p.in === 'path' && p.name !== 'jobId') expect({ path, p: p.name, type: p.schema?.type }).toEqual({ path, p: p.name, type: 'integer' });
        if (p.name === 'limit' || p.name === 'offset') expect({ path, p: p.name, type: p.schema?.type }).toEqual({ path, p: p.name, type: 'integer' });
      }
    }
    // Record ids, limit and offset are integers; ids of other systems are strings by contract.
    const externalIds = new Set([
      'telegramChatId',
      'socialAId',
      'adCampaignId',
      'campaign_id',
      'external_id',
      'platformCallId',
      'jobId',
      'eventId',
      'dialerId',
    ]);
    const idLike = (name: string) => !externalIds.has(name) && /^(id|ID|limit|offset)$|Id$|Ids$|_id$/.test(name);
    // OpenAPI 3.1: a nullable field's type is [type, 'null']; the check reads the type beside null.
    const notNull = (type: unknown) => (Array.isArray(type) ? type.filter((t) => t !== 'null').join() : type);
    const itemType = (schema: { type?: unknown; items?: { type?: unknown } }) => notNull(schema.type === 'array' ? schema.items?.type : schema.type);
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      for (const [field, prop] of Object.entries(schema.properties ?? {})) {
        // uuid ids (jobs, events) are strings by design.
        if (idLike(field) && !prop.$ref && !prop.oneOf && prop.format !== 'uuid')
          expect({ name, field, type: itemType(prop) }).toEqual({ name, field, type: 'integer' });
      }
    }
    for (const { path, op } of operationsOf(doc)) {
      for (const p of op.parameters ?? []) {
        if (idLike(p.name) && p.schema) expect({ path, p: p.name, type: itemType(p.schema) }).toEqual({ path, p: p.name, type: 'integer' });
      }
    }
    expect(doc.paths['/health/live'].get.security).toEqual([]);
    expect(doc.paths['/health/ready'].get.security).toEqual([]);
    expect(doc.paths['/v2/order'].get.security ?? doc.security).toEqual([{ 'api-key': [] }]);
    const tags = (doc.tags ?? []).map((tag) => tag.name);
    const firstManagement = tags.findIndex((name) => name.startsWith('management'));
    expect(tags.slice(0, firstManagement)).toEqual([
      'orders',
      'leads (v2)',
      'leads (v1)',
      'calls',
      'do-not-call',
      'dialer',
      'events',
      'webhooks',
      'users',
      'agent groups',
      'custom fields',
      'call attempt groups',
      'notifications (v1)',
      'status catalogues',
      'health',
    ]);
    expect(tags.slice(firstManagement).every((name) => name.startsWith('management'))).toBe(true);
  });
});
