import request from 'supertest';
import { createLead, createLeadOrder, leadBody, TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

/** Input that would break on the way to PostgreSQL or vanish in object copying: 400, and nothing changes. */
describe('unsafe input and the order of refusals', () => {
  let t: TestApp;
  let order: TestOrder;
  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
    order = await createLeadOrder(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (path: string, body: unknown, key = t.apiKey) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', key)
      .send(body as object);
  const count = async (sql: string) => (await t.ds.query(sql))[0].n as number;

  it.each([
    ['/v2/lead/create/', (o: TestOrder) => leadBody(o, { name: 'a\u0000b' }), 'name'],
    ['/v2/lead/create-async/', (o: TestOrder) => leadBody(o, { sourceComment: '\u0000' }), 'sourceComment'],
    [
      '/v1/lead/create/',
      (o: TestOrder) => ({ lead_type: 'straight', client_phone: '+79161230000', order_id: o.id, order_code: o.code, client_name: 'x\u0000' }),
      'client_name',
    ],
    ['/v2/lead/create/', (o: TestOrder) => leadBody(o, { customValues: { '1': 'x\u0000' } }), 'customValues.1'],
  ])('refuses a NUL character in %s with 400 naming %s, storing and queueing nothing', async (path, body, field) => {
    const before = await count(`SELECT (SELECT count(*) FROM lead) + (SELECT count(*) FROM pgboss.job) AS n`);
    const res = await post(path, body(order)).expect(400);
    expect(res.body).toEqual({ success: false, message: expect.any(String), data: { errors: [{ field, message: 'must not contain NUL characters' }] } });
    expect(await count(`SELECT (SELECT count(*) FROM lead) + (SELECT count(*) FROM pgboss.job) AS n`)).toBe(before);
  });

  it.each([
    [
      '/v2/lead/create/',
      'application/x-www-form-urlencoded',
      (o: TestOrder) => new URLSearchParams(Object.entries(leadBody(o)).map(([k, v]): [string, string] => [k, String(v)])).toString(),
    ],
    [
      '/v1/lead/create/',
      'application/x-www-form-urlencoded',
      (o: TestOrder) => `lead_type=straight&client_phone=%2B79161230001&order_id=${o.id}&order_code=${o.code}`,
    ],
    ['/v2/order/create/', 'text/plain; charset=utf-8', () => '{"title":"x"}'],
    ['/v2/api-key/create/', 'multipart/form-data; boundary=x', () => '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nk\r\n--x--\r\n'],
  ])('answers a body to %s sent as %s with 415 naming application/json, storing nothing', async (path, type, body) => {
    const before = await count(`SELECT (SELECT count(*) FROM lead) + (SELECT count(*) FROM call_order) + (SELECT count(*) FROM api_key) AS n`);
    const res = await request(t.http).post(path).set('X-Api-Key', t.apiKey).set('Content-Type', type).send(body(order)).expect(415);
    expect(res.body).toEqual({
      success: false,
      message: `Request bodies are JSON: send Content-Type: application/json (this one was sent as ${type.split(';')[0]})`,
      data: [],
    });
    expect(await count(`SELECT (SELECT count(*) FROM lead) + (SELECT count(*) FROM call_order) + (SELECT count(*) FROM api_key) AS n`)).toBe(before);
    // Without a valid key the answer stays 401, as for every other refused body.
    await request(t.http).post(path).set('Content-Type', type).send(body(order)).expect(401);
  });

  it('reads a body without Content-Type, or with a +json one, as JSON', async () => {
    const raw = JSON.stringify(leadBody(order));
    const untyped = await request(t.http).post('/v2/lead/create/').set('X-Api-Key', t.apiKey).send(Buffer.from(raw));
    expect(untyped.request.getHeader('Content-Type')).toBeUndefined();
    expect(untyped.status).toBe(200);
    const merge = await request(t.http).post('/v2/lead/create/').set('X-Api-Key', t.apiKey).set('Content-Type', 'application/merge-patch+json').send(raw);
    expect(merge.status).toBe(200);
  });

  it('refuses lone surrogates and absurd nesting with 400, storing and queueing nothing', async () => {
    const before = await count(`SELECT (SELECT count(*) FROM lead) + (SELECT count(*) FROM pgboss.job) AS n`);
    const lone = await request(t.http)
      .post('/v2/lead/create-async/')
      .set('X-Api-Key', t.apiKey)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(leadBody(order)).replace(/}$/, ',"name":"\\udc00"}'))
      .expect(400);
    expect(lone.body.data.errors).toEqual([{ field: 'name', message: 'must be well-formed Unicode (no lone surrogates)' }]);
    const deep = await request(t.http)
      .post('/v2/lead/create/')
      .set('X-Api-Key', t.apiKey)
      .set('Content-Type', 'application/json')
      .send(`{"name":"x","zz":${'['.repeat(1500)}${']'.repeat(1500)}}`)
      .expect(400);
    expect(deep.body.data.errors[0].message).toMatch(/deeper than/);
    expect(await count(`SELECT (SELECT count(*) FROM lead) + (SELECT count(*) FROM pgboss.job) AS n`)).toBe(before);
  });

  it('refuses a NUL character in a query parameter', async () => {
    const res = await request(t.http).get('/v2/user/list/?accessGroup=%00').set('X-Api-Key', t.apiKey).expect(400);
    expect(res.body.data.errors[0]).toEqual({ field: 'accessGroup', message: 'must not contain NUL characters' });
  });

  it('refuses a __proto__ key instead of silently wiping the custom values', async () => {
    const id = await createLead(t, order);
    await t.ds.query(`UPDATE lead SET custom_values = '{"1": "kept"}' WHERE id = $1`, [id]);
    const res = await request(t.http)
      .post(`/v2/lead/update/${id}/`)
      .set('X-Api-Key', t.apiKey)
      .set('Content-Type', 'application/json')
      .send('{"customValues":{"__proto__":"x"}}')
      .expect(400);
    expect(res.body.data.errors).toEqual([{ field: 'customValues.__proto__', message: 'is not an acceptable key' }]);
    expect((await t.ds.query(`SELECT custom_values AS v FROM lead WHERE id = $1`, [id]))[0].v).toEqual({ '1': 'kept' });
  });

  it('answers 401 to a caller without a valid key whatever its body: malformed, oversize or unsafe', async () => {
    for (const key of [undefined, 'cck_not-a-real-key']) {
      const req = (body: string) => {
        const r = request(t.http).post('/v2/lead/create/').set('Content-Type', 'application/json');
        return (key ? r.set('X-Api-Key', key) : r).send(body);
      };
      await req('{"phone": ').expect(401);
      await req(JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) })).expect(401);
      await req('{"name":"\\u0000"}').expect(401);
      // A corrupt compressed body: zlib's own error must not come before authentication either.
      const gz = request(t.http).post('/v2/lead/create/').set('Content-Type', 'application/json').set('Content-Encoding', 'gzip');
      await (key ? gz.set('X-Api-Key', key) : gz).send('xx').expect(401);
    }
    // With a valid key the body's own fault is reported.
    await request(t.http).post('/v2/lead/create/').set('X-Api-Key', t.apiKey).set('Content-Type', 'application/json').send('{"phone": ').expect(400);
  });

  describe('validation messages say what is wrong, not the last rule checked', () => {
    it.each([
      ['a string for an int', { orderId: '1' }, 'orderId', /integer/],
      ['a missing phone', { phone: undefined }, 'phone', /string|defined|empty/],
      ['null for a name', { name: null }, 'name', /string/],
    ])('%s', async (_what, change, field, pattern) => {
      const body: Record<string, unknown> = { ...leadBody(order), ...change };
      for (const [k, v] of Object.entries(change)) if (v === undefined) delete body[k];
      const res = await post('/v2/lead/create/', body).expect(400);
      const error = (res.body.data.errors as { field: string; message: string }[]).find((e) => e.field === field);
      expect(error?.message).toMatch(pattern);
      expect(error?.message).not.toMatch(/greater|shorter|longer/);
    });

    it('limit=abc is not an integer, not "greater than 100"', async () => {
      const res = await request(t.http).get('/v2/order/?limit=abc').set('X-Api-Key', t.apiKey).expect(400);
      expect(res.body.message).toMatch(/integer/);
    });
  });
});

describe('empty query parameters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    '/v2/order/?limit=&offset=',
    '/v2/user/list/?isActive=&accessGroup=',
    '/v2/agent-group/?agentId=',
    '/v2/custom-field/?essence=',
    '/v2/lead/?orderIds[]=&statusIds=&createdAt[0]=',
    '/v2/call/?orderIds=1&userIds=&createdAt[1]=',
  ])('%s is the same as without them', async (path) => {
    const [base] = path.split('?');
    const withEmpty = await request(t.http).get(path).set('X-Api-Key', t.apiKey);
    const plainPath = path.includes('orderIds=1') ? `${base}?orderIds=1` : base;
    const without = await request(t.http).get(plainPath).set('X-Api-Key', t.apiKey);
    expect(withEmpty.status).toBe(200);
    expect({ status: withEmpty.status, body: withEmpty.body }).toEqual({ status: without.status, body: without.body });
  });

  it('keeps a lone end bound an end bound: createdAt[0]=&createdAt[1]=...', async () => {
    const res = await request(t.http).get('/v2/lead/?createdAt[0]=&createdAt[1]=2000-01-01').set('X-Api-Key', t.apiKey).expect(200);
    expect(res.body.data.total).toBe(0);
  });
});
