import request from 'supertest';
import { Client } from 'pg';
import { createTestApp, TestApp } from './support/test-app';

describe('foundation: envelope, auth, errors, health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('rejects a missing key with 401 and the envelope', async () => {
    const res = await request(t.http).get('/v1/health/check/').expect(401);
    expect(res.body).toEqual({ success: false, message: expect.stringContaining('API key'), data: [] });
  });

  it('rejects an unknown key with 401', async () => {
    await request(t.http).get('/v1/health/check/').set('X-Api-Key', 'cck_not-a-real-key').expect(401);
  });

  it('answers an unknown route with 404 and the envelope', async () => {
    const res = await request(t.http).get('/v2/no-such-thing/').set('X-Api-Key', t.apiKey).expect(404);
    expect(res.body).toEqual({ success: false, message: 'Not found', data: [] });
  });

  it('answers malformed JSON with 400 and the envelope', async () => {
    const res = await request(t.http)
      .post('/v2/api-key/create/')
      .set('X-Api-Key', t.apiKey)
      .set('Content-Type', 'application/json')
      .send('{"name": "x",')
      .expect(400);
    expect(res.body).toEqual({ success: false, message: 'Malformed JSON body', data: [] });
  });

  it('answers a body over 1 MiB with 413', async () => {
    const res = await request(t.http)
      .post('/v2/api-key/create/')
      .set('X-Api-Key', t.apiKey)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }))
      .expect(413);
    expect(res.body.success).toBe(false);
  });

  it('reports validation failures field by field', async () => {
    const res = await request(t.http)
      .post('/v2/api-key/create/')
      .set('X-Api-Key', t.apiKey)
      .send({ name: '', scopes: ['root'] })
      .expect(400);
    expect(res.body.success).toBe(false);
    expect(res.body.data.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'name' }), expect.objectContaining({ field: 'scopes' })]));
  });

  it('enforces scopes: 403 for a key without admin', async () => {
    const apiOnly = await t.keyWith('api');
    const res = await request(t.http).get('/v2/api-key/').set('X-Api-Key', apiOnly).expect(403);
    expect(res.body).toEqual({ success: false, message: expect.stringContaining("'admin'"), data: [] });
  });

  it('creates, lists and revokes keys; a revoked key gets 401; trailing slash is optional', async () => {
    const created = await request(t.http)
      .post('/v2/api-key/create')
      .set('X-Api-Key', t.apiKey)
      .send({ name: 'crm', scopes: ['api'] })
      .expect(200);
    const { id, key } = created.body.data;
    expect(typeof id).toBe('number');
    await request(t.http).get('/v1/health/check').set('X-Api-Key', key).expect(200);
    const list = await request(t.http).get('/v2/api-key/').set('X-Api-Key', t.apiKey).expect(200);
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect(list.body.data.list.map((k: { name: string }) => k.name)).toContain('crm');
    await request(t.http).post(`/v2/api-key/revoke/${id}/`).set('X-Api-Key', t.apiKey).expect(200);
    await request(t.http).get('/v1/health/check/').set('X-Api-Key', key).expect(401);
    const stored = await t.ds.query(`SELECT key_hash FROM api_key WHERE id = $1`, [id]);
    expect(stored[0].key_hash).not.toContain(key);
  });

  it('lists API keys like every other list: {list, next, total}, offset and limit, by id', async () => {
    for (const name of ['page-a', 'page-b', 'page-c']) {
      await request(t.http)
        .post('/v2/api-key/create/')
        .set('X-Api-Key', t.apiKey)
        .send({ name, scopes: ['api'] })
        .expect(200);
    }
    const all: { id: number; name: string }[] = await t.ds.query(`SELECT id, name FROM api_key ORDER BY id`);
    const first = (await request(t.http).get('/v2/api-key/?limit=2').set('X-Api-Key', t.apiKey).expect(200)).body.data;
    expect(first.list.map((k: { id: number }) => k.id)).toEqual(all.slice(0, 2).map((k) => k.id));
    expect(first).toMatchObject({ next: 2, total: all.length });
    const rest = (await request(t.http).get('/v2/api-key/?offset=2&limit=100').set('X-Api-Key', t.apiKey).expect(200)).body.data;
    expect(rest.list.map((k: { name: string }) => k.name)).toEqual(all.slice(2).map((k) => k.name));
    expect(rest).toMatchObject({ next: all.length, total: all.length });
    for (const bad of ['limit=0', 'limit=101', 'offset=-1']) {
      const res = await request(t.http).get(`/v2/api-key/?${bad}`).set('X-Api-Key', t.apiKey).expect(400);
      expect(res.body.data.errors[0].field).toBe(bad.split('=')[0]);
    }
  });

  it('rejects invalid path ids with 400, never 500', async () => {
    for (const bad of ['0', '-1', 'abc', '99999999999999999999', '2147483648']) {
      const res = await request(t.http).post(`/v2/api-key/revoke/${bad}/`).set('X-Api-Key', t.apiKey).expect(400);
      expect(res.body.data.errors[0].field).toBe('id');
    }
    await request(t.http).post('/v2/api-key/revoke/2147483647/').set('X-Api-Key', t.apiKey).expect(404);
  });

  it('serves the health check with database and queue components', async () => {
    const res = await request(t.http).get('/v1/health/check/').set('X-Api-Key', t.apiKey).expect(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.database).toEqual({ success: true, message: '', data: { executionTime: expect.any(Number), reasonPhrase: 'Ok' } });
    expect(res.body.data.serviceMqHub.success).toBe(true);
    expect(Array.isArray(res.body.data.serviceMqHub.data.consumers)).toBe(true);
  });

  it('serves probes without a key and the OpenAPI document', async () => {
    await request(t.http).get('/health/live').expect(200);
    await request(t.http).get('/health/ready/').expect(200);
    const doc = await request(t.http).get('/docs-json').expect(200);
    expect(doc.body.paths['/v1/health/check']).toBeDefined();
  });

  it('answers 503 while the database is unreachable and recovers without a restart', async () => {
    const dbName = new URL(t.databaseUrl).pathname.slice(1);
    const admin = new Client({ connectionString: t.databaseUrl.replace(`/${dbName}`, '/postgres') });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS false`);
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [dbName]);
      const down = await request(t.http).get('/v1/health/check/').set('X-Api-Key', t.apiKey).expect(503);
      expect(down.body.success).toBe(false);
      expect(down.body.data.database.success).toBe(false);
      await request(t.http).get('/health/ready').expect(503);
      const api = await request(t.http).get('/v2/api-key/').set('X-Api-Key', t.apiKey).expect(503);
      expect(api.body).toEqual({ success: false, message: expect.stringContaining('unavailable'), data: [] });
    } finally {
      await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    const up = await request(t.http).get('/v1/health/check/').set('X-Api-Key', t.apiKey).expect(200);
    expect(up.body.data.database.success).toBe(true);
  });
});
