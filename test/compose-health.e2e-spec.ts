import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { noteSkip } from './support/skip-notes';
import { untilTrue } from './support/until';

/**
 * docker-compose.yml as operations.md describes it: every service has a health check, and the load balancer's is real. The
 * balancer's check runs against Debian's HAProxy started with the compose file's own configuration (the Docker resolver and
 * server template swapped for one local API stand-in): healthy while the API answers /health/ready, unhealthy once it does not.
 */
interface Compose {
  services: Record<string, { healthcheck?: { test: string[] }; '<<'?: unknown }>;
  'x-app': { healthcheck?: { test: string[] } };
  configs: { haproxy: { content: string } };
}

const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';
const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as Compose;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

describe('docker-compose.yml health checks', () => {
  it('every service has one (the API and worker ones through the shared x-app block)', () => {
    const missing = Object.entries(compose.services)
      .filter(([, s]) => !s.healthcheck)
      .map(([name]) => name);
    expect(missing).toEqual([]);
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'db', 'lb', 'worker']);
  });

  const runs = existsSync(HAPROXY);
  if (!runs) noteSkip(`compose load balancer check skipped: no HAProxy at ${HAPROXY}. Install it with "sudo apt-get install -y haproxy".`);
  (runs ? describe : describe.skip)("the load balancer's check against HAProxy with the compose configuration", () => {
    let dir: string;
    let api: Server;
    let haproxy: ChildProcess;
    let ready = true;
    let monitorPort: number;

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'compose-lb-'));
      api = createServer((req, res) => {
        res.statusCode = req.url === '/health/ready' && !ready ? 503 : 200;
        res.end();
      });
      await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
      const apiPort = (api.address() as AddressInfo).port;
      monitorPort = await freePort();
      const frontPort = await freePort();
      // The compose configuration, with addresses this machine has: no Docker DNS, one API server, ports of the test's own.
      const config = compose.configs.haproxy.content
        .replace(/resolvers docker\n(\s+.*\n)+?(?=\S)/, '')
        .replace('bind :3000', `bind 127.0.0.1:${frontPort}`)
        .replace('bind 127.0.0.1:8405', `bind 127.0.0.1:${monitorPort}`)
        .replace(/ resolvers docker init-addr none/, '')
        .replace(/server-template api 10 api:3000 check/, `server api1 127.0.0.1:${apiPort} check`);
      writeFileSync(path.join(dir, 'haproxy.cfg'), config);
      haproxy = spawn(HAPROXY, ['-db', '-f', path.join(dir, 'haproxy.cfg')], { stdio: 'ignore' });
    });
    afterAll(async () => {
      haproxy?.kill('SIGKILL');
      await new Promise<void>((resolve) => api?.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    });

    /** The compose check's command, pointed at the test's monitor port: its exit code. */
    const check = () =>
      new Promise<number>((resolve) => {
        const script = compose.services.lb.healthcheck!.test[3].replace('/dev/tcp/127.0.0.1/8405', `/dev/tcp/127.0.0.1/${monitorPort}`);
        execFile('bash', ['-c', script], { timeout: 3000 }, (err) => resolve(err ? 1 : 0));
      });

    it('passes while an API instance is ready, fails once none is', async () => {
      expect(compose.services.lb.healthcheck!.test.slice(0, 3)).toEqual(['CMD', 'bash', '-c']);
      expect(await untilTrue(async () => (await check()) === 0, 10_000)).toBe(true);
      ready = false;
      expect(await untilTrue(async () => (await check()) !== 0, 10_000)).toBe(true);
      ready = true;
      expect(await untilTrue(async () => (await check()) === 0, 10_000)).toBe(true);
    });
  });
});
