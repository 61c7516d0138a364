import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config/app.config';
import { createTestApp, TestApp } from './support/test-app';

/**
 * A balancer keeps idle connections to an instance and reuses them; if the instance closed one first, HAProxy drops
 * the client's connection without an answer. Idle connections therefore outlive what balancers keep (HTTP_KEEP_ALIVE_SECONDS).
 */
describe('HTTP keep-alive', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ HTTP_KEEP_ALIVE_SECONDS: '8' });
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  function get(agent: http.Agent): Promise<{ status: number; reused: boolean; port: number }> {
    return new Promise((resolve, reject) => {
      const req = http.get(`${base}/health/live`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket, port: req.socket!.localPort! }));
      });
      req.on('error', reject);
    });
  }

  it('defaults to 65 s, longer than balancers keep idle connections (cloud balancers at 60 s); the server takes the setting', () => {
    expect(loadConfig({}).httpKeepAliveSeconds).toBe(65);
    expect(t.app.getHttpServer().keepAliveTimeout).toBe(8000);
  });

  it('serves a second request on a connection idle longer than the 5 s Node keeps by itself', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(agent);
      await new Promise((r) => setTimeout(r, 6000));
      const second = await get(agent);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second).toMatchObject({ reused: true, port: first.port });
    } finally {
      agent.destroy();
    }
  }, 20_000);
});
