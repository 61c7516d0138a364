import type { AddressInfo, Server } from 'node:net';
import request from 'supertest';
import { HealthService } from '../src/modules/health/health.service';
import { serveWorkerProbes } from '../src/modules/health/http/worker-probes';
import { ShutdownState } from '../src/modules/health/shutdown/shutdown-state';
import { createSiblingApp, createTestApp, TestApp } from './support/test-app';

/**
 * A worker-only instance (WORKERS_ONLY=true) serves no API but answers the container probes on
 * PORT, as main.ts starts it: the image's HEALTHCHECK (/health/live) passes for worker containers.
 */
describe('container probes of a worker-only instance', () => {
  let t: TestApp;
  const servers: Server[] = [];
  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
  });
  afterAll(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    await t.close();
  });

  async function probes(health: HealthService): Promise<string> {
    const server = await serveWorkerProbes(health, 0, '127.0.0.1');
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('answers /health/live and /health/ready like an API instance, and nothing else', async () => {
    const worker = await createSiblingApp(t, { workersOnly: true, workers: 1 });
    try {
      const url = await probes(worker.get(HealthService));
      expect((await request(url).get('/health/live').expect(200)).body).toEqual({ success: true, message: '', data: [] });
      expect((await request(url).get('/health/live/').expect(200)).body.success).toBe(true);
      expect((await request(url).get('/health/ready').expect(200)).body).toEqual({ success: true, message: '', data: [] });
      expect((await request(url).get('/v2/order/').set('X-Api-Key', t.apiKey).expect(404)).body).toEqual({ success: false, message: 'Not found', data: [] });
      await request(url).post('/health/live').expect(404);
      await request(url).get('/v1/health/check/').set('X-Api-Key', t.apiKey).expect(404);
    } finally {
      await worker.close();
    }
  });

  it('readiness is 503 from the moment the instance shuts down, liveness stays 200', async () => {
    const worker = await createSiblingApp(t, { workersOnly: true, workers: 1 });
    try {
      const url = await probes(worker.get(HealthService));
      await request(url).get('/health/ready').expect(200);
      worker.get(ShutdownState).begin();
      expect((await request(url).get('/health/ready').expect(503)).body).toEqual({ success: false, message: 'Shutting down', data: [] });
      await request(url).get('/health/live').expect(200);
    } finally {
      await worker.close();
    }
  });

  it('readiness is 503 while the database is unreachable', async () => {
    const down = { notReadyReason: () => Promise.resolve('Database unavailable') } as unknown as HealthService;
    const url = await probes(down);
    expect((await request(url).get('/health/ready').expect(503)).body).toEqual({ success: false, message: 'Database unavailable', data: [] });
    await request(url).get('/health/live').expect(200);
  });
});
