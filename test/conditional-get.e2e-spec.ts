import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';

/** A GET repeated with its ETag answers 304, also with the Cache-Control: no-cache that fetch adds to If-None-Match. */
describe('conditional GET', () => {
  let t: TestApp;
  let etag: string;
  const get = (path = '/v2/order') => request(t.http).get(path).set('X-Api-Key', t.apiKey);

  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
    const first = await get().expect(200);
    etag = first.headers.etag;
    expect(etag).toMatch(/^W\/".+"$/);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 304 to a matching If-None-Match, with or without Cache-Control: no-cache (and Pragma: no-cache)', async () => {
    const plain = await get().set('If-None-Match', etag);
    const noCache = await get().set('If-None-Match', etag).set('Cache-Control', 'no-cache').set('Pragma', 'no-cache');
    const mixed = await get().set('If-None-Match', etag).set('Cache-Control', 'max-age=0, No-Cache');
    expect([plain.status, noCache.status, mixed.status]).toEqual([304, 304, 304]);
    expect(noCache.headers.etag).toBe(etag);
    expect(noCache.text).toBe('');
  });

  it('answers 200 with the body when If-None-Match does not match, or is absent, under no-cache', async () => {
    const other = await get().set('If-None-Match', 'W/"0-0"').set('Cache-Control', 'no-cache');
    const none = await get().set('Cache-Control', 'no-cache');
    expect([other.status, none.status]).toEqual([200, 200]);
    expect(other.body).toEqual(none.body);
    expect(other.headers.etag).toBe(etag);
  });

  it('answers 200 once the representation changed', async () => {
    const before = (await get('/v2/user/list').expect(200)).headers.etag;
    await request(t.http)
      .post('/v2/user/create')
      .set('X-Api-Key', t.apiKey)
      .send({ email: `etag-${Date.now()}@example.test` })
      .expect(200);
    const after = await get('/v2/user/list').set('If-None-Match', before).set('Cache-Control', 'no-cache');
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before);
  });

  it('gives fetch its 304: fetch sends If-None-Match with Cache-Control: no-cache', async () => {
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/v2/order`, { headers: { 'X-Api-Key': t.apiKey, 'If-None-Match': etag } });
    expect(res.status).toBe(304);
  });
});
