import request from 'supertest';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { createTestApp, TestApp } from './support/test-app';

/** A body field's schema; OpenAPI 3.1 gives a nullable field its types as a list (`['string', 'null']`). */
interface FieldSchema {
  type?: string | string[];
}

const jsonType = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;

/**
 * Values some fields take beyond their OpenAPI type, as their descriptions say: a comment is text
 * or JSON (an object or array is stored as its text), and [] is an empty customValues map.
 */
const ALSO_ACCEPTED: Record<string, (v: unknown) => boolean> = {
  sourceComment: (v) => typeof v === 'object',
  quiz_log: (v) => typeof v === 'object',
  customValues: (v) => Array.isArray(v) && v.length === 0,
};

/** Whether a field refuses `v` by its JSON type alone (null is left out: optional fields take it). */
const wrongType = (field: string, schema: FieldSchema, v: unknown): boolean => {
  if (schema.type === undefined || v === null) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return !types.includes(jsonType(v)) && !(types.includes('number') && jsonType(v) === 'integer') && !ALSO_ACCEPTED[field]?.(v);
};

/** Runs `fn` on every item, `limit` at a time. */
async function eachConcurrently<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/**
 * Every route of the OpenAPI document, fed malformed input: the answer is always a 4xx envelope,
 * never a 5xx. Path ids get junk, bodies get wrong shapes and wrong types, queries get garbage.
 * A 401 or 403 counts as a failure too: the sweep must reach the validation, not stop at the key.
 */
describe('no 5xx for client input, on every route', () => {
  let t: TestApp;
  let routes: { method: 'get' | 'post'; path: string; hasBody: boolean; bodyFields: Record<string, FieldSchema> }[];

  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
    await t.app.get(DemoSeeder).run();
    const doc = (await request(t.http).get('/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } }>>;
      components: { schemas: Record<string, { properties?: Record<string, FieldSchema> }> };
    };
    routes = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (method !== 'get' && method !== 'post') continue;
        const ref = op.requestBody?.content?.['application/json']?.schema?.$ref;
        const schema = ref ? doc.components.schemas[ref.split('/').pop()!] : undefined;
        routes.push({ method, path, hasBody: ref !== undefined, bodyFields: schema?.properties ?? {} });
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

  const denied = (status: number) => status === 401 || status === 403;

  it('answers malformed bodies with 4xx, and no junk body with 5xx', async () => {
    // [path, body, malformed]: a non-object body, or a field of the wrong JSON type, must be refused.
    const cases: [string, unknown, boolean][] = [];
    for (const r of routes.filter((x) => x.method === 'post')) {
      // A route without a body acts on its path id alone: an id that matches nothing, so the sweep
      // revokes or deletes nothing (revoking key 1 would revoke this test's own key).
      const path = fill(r.path, r.hasBody ? '1' : '2147483647');
      for (const body of [[], 'text', 123, null]) cases.push([path, body, r.hasBody]);
      cases.push([path, {}, false]);
      for (const [field, schema] of Object.entries(r.bodyFields)) for (const v of junkValues) cases.push([path, { [field]: v }, wrongType(field, schema, v)]);
    }
    const unexpected: string[] = [];
    await eachConcurrently(cases, 4, async ([path, body, malformed]) => {
      const res = await request(t.http).post(path).set('X-Api-Key', t.apiKey).set('Content-Type', 'application/json').send(JSON.stringify(body));
      const refused = res.status >= 400 && res.status < 500;
      if (res.status >= 500 || denied(res.status) || (malformed && !refused)) {
        unexpected.push(`${path} ${JSON.stringify(body).slice(0, 200)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      }
    });
    expect(unexpected).toEqual([]);
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
    const unexpected: string[] = [];
    for (const r of routes.filter((x) => x.method === 'get')) {
      const path = fill(r.path, '1');
      const get = (query: string) => request(t.http).get(`${path}${query}`).set('X-Api-Key', t.apiKey);
      // The health check reports the service, not the request (503 here: no worker consumes the
      // queues), so junk must leave its answer as it is without parameters.
      const plain = (await get('')).status;
      const allowed = (status: number) =>
        status === 200 || (status >= 400 && status < 500 && !denied(status)) || (r.path === '/v1/health/check' && status === plain);
      const queries = params.flatMap((p) => values.map((v) => `?${p}=${encodeURIComponent(v)}`));
      await eachConcurrently(queries, 4, async (query) => {
        const res = await get(query);
        if (!allowed(res.status)) unexpected.push(`${path}${query} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      });
    }
    expect(unexpected).toEqual([]);
  }, 120_000);
});
