import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';
import { createLeadOrder, leadBody, testPhone } from './factories/leads';

/** The Idempotency-Key mechanism, exercised on a creating management endpoint (call scenarios). */
describe('Idempotency-Key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const create = (key: string | undefined, body: object) => {
    const r = request(t.http).post('/v2/call-scenario/create/').set('X-Api-Key', t.apiKey);
    if (key !== undefined) r.set('Idempotency-Key', key);
    return r.send(body);
  };
  const count = async (title: string) => (await t.ds.query(`SELECT count(*)::int AS n FROM call_scenario WHERE title = $1`, [title]))[0].n;

  it('replays the stored response for the same key and body', async () => {
    const first = await create('k-1', { title: 'idem-a' }).expect(200);
    const again = await create('k-1', { title: 'idem-a' }).expect(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await count('idem-a')).toBe(1);
  });

  it('answers 409 for the same key with another body, storing nothing', async () => {
    await create('k-2', { title: 'idem-b' }).expect(200);
    const res = await create('k-2', { title: 'idem-c' }).expect(409);
    expect(res.body).toEqual({ success: false, message: expect.stringContaining('Idempotency-Key'), data: [] });
    expect(await count('idem-c')).toBe(0);
  });

  it('creates once under concurrent retries', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => create('k-3', { title: 'idem-d' })));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await count('idem-d')).toBe(1);
  });

  it('lets a failed request be retried with the same key', async () => {
    await create('k-4', { title: '' }).expect(400);
    await create('k-4', { title: '' }).expect(400);
    const stored = await t.ds.query(`SELECT count(*)::int AS n FROM idempotency_record WHERE key = 'k-4'`);
    expect(stored[0].n).toBe(0);
  });

  it('keys are scoped per API key', async () => {
    const other = await t.keyWith('admin');
    const a = await create('k-5', { title: 'idem-e' }).expect(200);
    const b = await request(t.http)
      .post('/v2/call-scenario/create/')
      .set('X-Api-Key', other)
      .set('Idempotency-Key', 'k-5')
      .send({ title: 'idem-e2' })
      .expect(200);
    expect(b.body.data.id).not.toBe(a.body.data.id);
  });

  it('rejects an over-long key with 400', async () => {
    const res = await create('x'.repeat(256), { title: 'idem-f' }).expect(400);
    expect(res.body.data.errors[0].field).toBe('Idempotency-Key');
    expect(await count('idem-f')).toBe(0);
  });

  it('is declared on every creating POST of the OpenAPI document but the API key one', async () => {
    const doc = (await request(t.http).get('/docs-json').expect(200)).body as {
      paths: Record<string, { post?: { parameters?: { name: string; in: string }[] } }>;
    };
    const creates = Object.entries(doc.paths).filter(([path, ops]) => /\/create\/?$/.test(path) && ops.post);
    expect(creates.length).toBeGreaterThanOrEqual(10);
    const without = creates.filter(([, ops]) => !ops.post!.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')).map(([path]) => path);
    expect(without).toEqual(['/v2/api-key/create']);
  });

  it('never stores an API key secret for a replay: API key creation ignores the header', async () => {
    const first = await request(t.http)
      .post('/v2/api-key/create/')
      .set('X-Api-Key', t.apiKey)
      .set('Idempotency-Key', 'k-secret')
      .send({ name: 'idem-key', scopes: ['api'] })
      .expect(200);
    // Not a replay: a second creation, refused because the name is taken by the first.
    const second = await request(t.http)
      .post('/v2/api-key/create/')
      .set('X-Api-Key', t.apiKey)
      .set('Idempotency-Key', 'k-secret')
      .send({ name: 'idem-key', scopes: ['api'] })
      .expect(409);
    expect(second.body).toEqual({ success: false, message: "An active API key is already named 'idem-key'", data: [] });
    const stored = await t.ds.query(`SELECT response::text AS r FROM idempotency_record`);
    expect(stored.map((r: { r: string }) => r.r).join('\n')).not.toContain(first.body.data.key);
  });
});

/**
 * The idempotency record is completed after the lead's own transaction commits. If it is lost in
 * between (the completion fails, the process dies), a retry runs the create again: the lead's
 * job id, fixed by the request, still finds the first lead.
 */
describe('Idempotency-Key on lead creation when the idempotency record is lost', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  const send = (path: string, key: string, body: object) => request(t.http).post(path).set('X-Api-Key', t.apiKey).set('Idempotency-Key', key).send(body);
  const loseRecords = () => t.ds.query(`DELETE FROM idempotency_record`);
  const leads = async (orderId: number) => (await t.ds.query(`SELECT count(*)::int AS n FROM lead WHERE order_id = $1`, [orderId]))[0].n;

  it('v2 and v1 sync creates return the first lead, creating no second one', async () => {
    const order = await createLeadOrder(t);
    const body = leadBody(order);
    const first = await send('/v2/lead/create/', 'lost-1', body).expect(200);
    await loseRecords();
    const again = await send('/v2/lead/create/', 'lost-1', body).expect(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    const v1Body = { lead_type: 'straight', client_phone: testPhone(), order_id: order.id, order_code: order.code };
    const v1 = await send('/v1/lead/create/', 'lost-2', v1Body).expect(200);
    await loseRecords();
    expect((await send('/v1/lead/create/', 'lost-2', v1Body).expect(200)).body.data.id).toBe(v1.body.data.id);
    expect(await leads(order.id)).toBe(2);
  });

  it('an async create answers the same job, queued once', async () => {
    const order = await createLeadOrder(t);
    const body = leadBody(order);
    const first = await send('/v2/lead/create-async/', 'lost-3', body).expect(200);
    await loseRecords();
    const again = await send('/v2/lead/create-async/', 'lost-3', body).expect(200);
    const jobId = first.headers['x-job-id'];
    expect(again.headers['x-job-id']).toBe(jobId);
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE id = $1`, [jobId]))[0].n).toBe(1);
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM lead_async_job WHERE order_id = $1`, [order.id]))[0].n).toBe(1);
  });

  it('a sync create whose process died after its commit, before storing the answer: the retry taking over the claim gets that lead', async () => {
    const order = await createLeadOrder(t);
    const body = leadBody(order);
    const first = await send('/v2/lead/create/', 'died-1', body).expect(200);
    // What a SIGKILL between the lead's commit and the answer's leaves: an unfinished claim, older than the abandonment window.
    await t.ds.query(
      `UPDATE idempotency_record SET owner = gen_random_uuid(), status_code = NULL, response = NULL, response_headers = NULL, completed_at = NULL,
         created_at = now() - interval '21 seconds' WHERE key = 'died-1'`,
    );
    const retry = await send('/v2/lead/create/', 'died-1', body).expect(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.body.data.id).toBe(first.body.data.id);
    expect(await leads(order.id)).toBe(1);
    const replay = await send('/v2/lead/create/', 'died-1', body).expect(200);
    expect({ replayed: replay.headers['idempotent-replayed'], id: replay.body.data.id }).toEqual({ replayed: 'true', id: first.body.data.id });
  });

  it('another key or another body is another lead', async () => {
    const order = await createLeadOrder(t);
    const a = await send('/v2/lead/create/', 'k-a', leadBody(order)).expect(200);
    const b = await send('/v2/lead/create/', 'k-b', leadBody(order)).expect(200);
    expect(b.body.data.id).not.toBe(a.body.data.id);
  });
});
