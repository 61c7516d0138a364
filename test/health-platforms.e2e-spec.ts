import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';

/** External platforms of the health check, probed over HTTP against a local server. */
describe('health check: external platforms', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const status = req.url === '/ok' ? 200 : req.url === '/down' ? 503 : 404;
      res.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  async function check(env: Record<string, string>) {
    const t: TestApp = await createTestApp(env);
    try {
      const res = await request(t.http).get('/v1/health/check/').set('X-Api-Key', t.apiKey);
      return { status: res.status, body: res.body };
    } finally {
      await t.close();
    }
  }

  it('reports each configured platform, healthy when it answers 2xx', async () => {
    const { status, body } = await check({ TELEPHONY_PLATFORM_URL: `${base}/ok`, SPEECH_PLATFORM_URL: `${base}/ok` });
    expect(status).toBe(200);
    expect(body.data.telephonyPlatform).toEqual({ success: true, message: '', data: { executionTime: expect.any(Number), reasonPhrase: 'OK' } });
    expect(body.data.speechPlatform.success).toBe(true);
  });

  it.each([
    ['answers 503', '/down'],
    ['answers 404 (a wrong URL is not a healthy platform)', '/missing'],
  ])('fails the whole check with 503 when a platform %s', async (_what, path) => {
    const { status, body } = await check({ TELEPHONY_PLATFORM_URL: `${base}${path}` });
    expect(status).toBe(503);
    expect(body.success).toBe(false);
    expect(body.data.telephonyPlatform.success).toBe(false);
    expect(body.data.database.success).toBe(true);
    expect(body.data.speechPlatform).toBeUndefined();
  });

  it('fails when a platform cannot be reached at all', async () => {
    const { status, body } = await check({ SPEECH_PLATFORM_URL: 'http://127.0.0.1:1/health' });
    expect(status).toBe(503);
    expect(body.data.speechPlatform.success).toBe(false);
  });
});
