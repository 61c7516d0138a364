import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';

/** The Idempotency-Key mechanism, exercised on a creating endpoint of the foundation (API keys). */
describe('Idempotency-Key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const create = (key: string | undefined, body: object) => {
    const r = request(t.http).post('/v2/api-key/create/').set('X-Api-Key', t.apiKey);
    if (key !== undefined) r.set('Idempotency-Key', key);
    return r.send(body);
  };
  const count = async (name: string) => (await t.ds.query(`SELECT count(*)::int AS n FROM api_key WHERE name = $1`, [name]))[0].n;

  it('replays the stored response for the same key and body', async () => {
    const first = await create('k-1', { name: 'idem-a', scopes: ['api'] }).expect(200);
    const again = await create('k-1', { scopes: ['api'], name: 'idem-a' }).expect(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await count('idem-a')).toBe(1);
  });

  it('answers 409 for the same key with another body, storing nothing', async () => {
    await create('k-2', { name: 'idem-b', scopes: ['api'] }).expect(200);
    const res = await create('k-2', { name: 'idem-c', scopes: ['api'] }).expect(409);
    expect(res.body).toEqual({ success: false, message: expect.stringContaining('Idempotency-Key'), data: [] });
    expect(await count('idem-c')).toBe(0);
  });

  it('creates once under concurrent retries', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => create('k-3', { name: 'idem-d', scopes: ['api'] })));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await count('idem-d')).toBe(1);
  });

  it('lets a failed request be retried with the same key', async () => {
    await create('k-4', { name: '', scopes: ['api'] }).expect(400);
    await create('k-4', { name: '', scopes: ['api'] }).expect(400);
    const stored = await t.ds.query(`SELECT count(*)::int AS n FROM idempotency_record WHERE key = 'k-4'`);
    expect(stored[0].n).toBe(0);
  });

  it('keys are scoped per API key', async () => {
    const other = await t.keyWith('admin');
    const a = await create('k-5', { name: 'idem-e', scopes: ['api'] }).expect(200);
    const b = await request(t.http).post('/v2/api-key/create/').set('X-Api-Key', other).set('Idempotency-Key', 'k-5')
      .send({ name: 'idem-e2', scopes: ['api'] }).expect(200);
    expect(b.body.data.id).not.toBe(a.body.data.id);
  });

  it('rejects an over-long key with 400', async () => {
    const res = await create('x'.repeat(256), { name: 'idem-f', scopes: ['api'] }).expect(400);
    expect(res.body.data.errors[0].field).toBe('Idempotency-Key');
    expect(await count('idem-f')).toBe(0);
  });
});
