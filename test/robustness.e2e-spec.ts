import request from 'supertest';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Every route of the OpenAPI document, fed malformed input: the answer is always a 4xx envelope,
 * never a 5xx. Path ids get junk, bodies get wrong shapes and wrong types, queries get garbage.
 */
describe('no 5xx for client input, on every route', () => {
  let t: TestApp;
  let routes: { method: 'get' | 'post'; path: string; bodyFields: string[] }[];

  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
    await t.app.get(DemoSeeder).run();
    const doc = (await request(t.http).get('/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    routes = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (method !== 'get' && method !== 'post') continue;
        const ref = op.requestBody?.content?.['application/json']?.schema?.$ref;
        const schema = ref ? doc.components.schemas[ref.split('/').pop()!] : undefined;
        routes.push({ method, path, bodyFields: Object.keys(schema?.properties ?? {}) });
      }
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const junkValues: unknown[] = [
    null,
    -1,
    0,
    1.5,
    1e20,
    '',
    'x'.repeat(5000),
    true,
    [],
    [null],
    { a: 1 },
    '2026-13-45',
    ' ',
    '<script>',
    "'; DROP TABLE lead; --",
    'a\u0000b',
  ];
  // Also forms Number() would accept: none may reach a record.
  const pathJunk = ['0', '-1', 'abc', '99999999999999999999', '2147483648', '1.5', '%20', '1e3', '1e2', '0x10', '0b11', '%2B1', '1.0', '%201', '01', '%00'];

  const fill = (path: string, id: string) => path.replace(/\{[^}]+\}/g, id);

  it('has routes to check', () => {
    expect(routes.length).toBeGreaterThan(30);
  });

  it('answers junk path ids with 400', async () => {
    for (const r of routes.filter((x) => x.path.includes('{'))) {
      for (const id of pathJunk) {
        const res = await request(t.http)[r.method](fill(r.path, id)).set('X-Api-Key', t.apiKey).send({});
        expect({ route: `${r.method} ${r.path}`, id, status: res.status }).toEqual({ route: `${r.method} ${r.path}`, id, status: 400 });
        expect(res.body.success).toBe(false);
      }
    }
  });

  it('answers malformed bodies with 4xx', async () => {
    for (const r of routes.filter((x) => x.method === 'post')) {
      const path = fill(r.path, '1');
      const bodies: unknown[] = [[], 'text', 123, null, {}];
      for (const field of r.bodyFields) for (const v of junkValues) bodies.push({ [field]: v });
      for (const body of bodies) {
        const res = await request(t.http).post(path).set('X-Api-Key', t.apiKey).set('Content-Type', 'application/json').send(JSON.stringify(body));
        if (res.status >= 500) throw new Error(`${r.path} ${JSON.stringify(body).slice(0, 200)} -> ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
  }, 120_000);

  it('answers junk query parameters with 4xx or 200', async () => {
    const params = [
      'offset',
      'limit',
      'orderIds',
      'orderIds[]',
      'leadIds',
      'statusIds[]',
      'userIds',
      'createdAt[0]',
      'createdAt[1]',
      'createdAt',
      'essence',
      'accessGroup',
      'isActive',
      'agentId',
      'userId',
    ];
    const values = ['-1', 'abc', '1.5', '99999999999999999999', '', '1,abc', '%00', '101', '0'];
    for (const r of routes.filter((x) => x.method === 'get')) {
      const path = fill(r.path, '1');
      for (const p of params) {
        for (const v of values) {
          const res = await request(t.http)
            .get(`${path}?${p}=${encodeURIComponent(v)}`)
            .set('X-Api-Key', t.apiKey);
          if (res.status >= 500) throw new Error(`${path}?${p}=${v} -> ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
  }, 120_000);
});
