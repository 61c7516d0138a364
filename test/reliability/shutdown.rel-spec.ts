import { randomUUID } from 'node:crypto';
import { connect, Socket } from 'node:net';
import { leadBody } from './support/fixtures';
import { ConnectionError, HttpClient } from './support/http';
import { sleep } from './support/postgres';
import { writeFigures } from './support/run-dir';
import { Scenario, startScenario } from './support/scenario';

/**
 * SIGTERM on the real process: readiness answers 503 at once while other requests still succeed
 * for SHUTDOWN_DRAIN_SECONDS; then new connections are refused, a request in flight (its body still
 * arriving) completes with `Connection: close`, and the process exits 0. A second signal exits at
 * once; a request that outlives SHUTDOWN_TIMEOUT_SECONDS makes it exit 1 saying so.
 */

const DRAIN_S = 2;

interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** A POST whose body arrives in two parts: the request is in flight from the first byte until `finish()`. */
function slowPost(port: number, path: string, apiKey: string, body: unknown): { finish(): void; answer: Promise<RawAnswer>; socket: Socket } {
  const payload = Buffer.from(JSON.stringify(body));
  const socket = connect(port, '127.0.0.1');
  const head =
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${apiKey}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${payload.length}\r\nConnection: keep-alive\r\n\r\n`;
  socket.write(head);
  socket.write(payload.subarray(0, 10));
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    // The server closes the connection after its answer (Connection: close): the whole answer is in.
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [h, b = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(h)?.[1] ?? 0), head: h, body: b });
    });
  });
  return { finish: () => socket.write(payload.subarray(10)), answer, socket };
}

let s: Scenario;
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  s = await startScenario('shutdown', '918', { SHUTDOWN_DRAIN_SECONDS: String(DRAIN_S) });
});

afterAll(async () => {
  await writeFigures('shutdown', {
    ...figures,
    summary: Object.entries(figures).map(([k, v]) => [k, String(v)]),
  });
  await s?.close();
}, 60_000);

describe('graceful shutdown of one instance on SIGTERM', () => {
  it('drains, finishes the request in flight and exits 0', async () => {
    const { port } = s.service;
    const marker = randomUUID();
    const slow = slowPost(port, '/v2/lead/create/', s.apiKey, leadBody(s.order, s.people, marker));
    const other = new HttpClient(`http://127.0.0.1:${port}`, s.apiKey);
    await sleep(200);

    const signalledAt = Date.now();
    s.service.signal('SIGTERM');
    await sleep(50);
    const ready = await other.request('GET', '/health/ready', { noKey: true });
    expect({ status: ready.status, message: ready.body?.message }).toEqual({ status: 503, message: 'Shutting down' });
    figures['readiness 503 after SIGTERM'] = `${Date.now() - signalledAt} ms`;

    // The drain: everything else is still served.
    const during: number[] = [];
    while (Date.now() - signalledAt < (DRAIN_S - 0.5) * 1000) {
      during.push((await other.request('GET', `/v2/order/detail/${s.order.id}/`)).status);
      await sleep(100);
    }
    expect(during.length).toBeGreaterThan(5);
    expect(during.filter((st) => st !== 200)).toEqual([]);
    figures['requests served during the drain'] = `${during.length}, all 200`;
    other.close();

    // After the drain: no new connection is accepted, the slow request is still being answered.
    await sleep(1000);
    const fresh = new HttpClient(`http://127.0.0.1:${port}`, s.apiKey);
    const refused = await fresh.request('GET', '/health/live', { noKey: true }).then(
      (r) => String(r.status),
      (e: unknown) => (e instanceof ConnectionError ? e.code : String(e)),
    );
    fresh.close();
    expect(refused).toBe('ECONNREFUSED');
    expect(s.service.running).toBe(true);

    slow.finish();
    const answer = await slow.answer;
    expect(answer.status).toBe(200);
    expect(answer.head).toMatch(/^connection: close$/im);
    const id = Number((JSON.parse(answer.body) as { data: { id: number } }).data.id);
    const stored = await s.db.query(`SELECT id FROM lead WHERE external_id_crm_a = $1`, [marker]);
    expect(stored.rows).toEqual([{ id }]);

    expect(await s.service.exited).toBe(0);
    figures['SIGTERM to exit 0'] = `${((Date.now() - signalledAt) / 1000).toFixed(1)} s (drain ${DRAIN_S} s, then the slow request)`;
  });

  it('a second signal exits at once', async () => {
    await s.restartService({ SHUTDOWN_DRAIN_SECONDS: '20' });
    s.service.signal('SIGTERM');
    await sleep(300);
    expect(s.service.running).toBe(true);
    const at = Date.now();
    s.service.signal('SIGINT');
    expect(await s.service.exited).toBe(1);
    expect(Date.now() - at).toBeLessThan(2000);
    expect(s.service.logTail(5)).toMatch(/SIGINT again: exiting at once/);
    figures['second signal to exit'] = `${Date.now() - at} ms (exit 1)`;
  });

  it('past SHUTDOWN_TIMEOUT_SECONDS it exits 1 naming what still runs', async () => {
    await s.restartService({ SHUTDOWN_DRAIN_SECONDS: '1', SHUTDOWN_TIMEOUT_SECONDS: '3' });
    const stuck = slowPost(s.service.port, '/v2/lead/create/', s.apiKey, leadBody(s.order, s.people));
    stuck.answer.catch(() => undefined);
    await sleep(200);
    const at = Date.now();
    s.service.signal('SIGTERM');
    expect(await s.service.exited).toBe(1);
    const took = Date.now() - at;
    expect(took).toBeGreaterThanOrEqual(2900);
    expect(took).toBeLessThan(6000);
    expect(s.service.logTail(5)).toMatch(/did not finish within 3 s \(SHUTDOWN_TIMEOUT_SECONDS\): still running: closing HTTP; 1 HTTP request\(s\) in flight/);
    stuck.socket.destroy();
    figures['timeout to exit 1'] = `${(took / 1000).toFixed(1)} s (SHUTDOWN_TIMEOUT_SECONDS=3)`;
    // The scenario's close stops nothing more: start one for it.
    await s.restartService();
  });
});
