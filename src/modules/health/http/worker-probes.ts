import { createServer, Server } from 'node:http';
import { fail, ok } from '../../../common/envelope';
import { HealthService } from '../health.service';

/**
 * The container probes of a worker-only instance (WORKERS_ONLY=true), which serves no API: a plain HTTP server on PORT answering
 * `GET /health/live` and `/health/ready` as an API instance does, 404 to anything else, so the image's HEALTHCHECK works for both.
 */
export async function serveWorkerProbes(health: HealthService, port: number, host = '0.0.0.0'): Promise<Server> {
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    const path = (req.url ?? '').split('?')[0].replace(/\/+$/, '');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(404, fail('Not found'));
    if (path === '/health/live') return send(200, ok([]));
    if (path === '/health/ready') {
      void health.notReadyReason().then(
        (reason) => (reason ? send(503, fail(reason)) : send(200, ok([]))),
        () => send(503, fail('Database unavailable')),
      );
      return;
    }
    send(404, fail('Not found'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
