import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freeLoopbackPort } from './ports';
import { settlesWithin, sleep } from './postgres';
import { rememberPid } from './run-dir';

/** Debian's HAProxy (`apt-get install haproxy`), or HAPROXY_PATH. */
export function haproxyBinary(): string | null {
  const candidates = [process.env.HAPROXY_PATH, '/usr/sbin/haproxy', '/usr/bin/haproxy'];
  return candidates.find((p): p is string => !!p && existsSync(p)) ?? null;
}

export interface Backend {
  name: string;
  port: number;
}

/** One line per request: accept date (ms), idle time before it, frontend, server, status, termination state, retries, method, path, marker. */
const LOG_FORMAT = '%Ts%ms %Ti %ft %s %ST %tsc %rc %HM %HP %[capture.req.hdr(0)]';

/** A request as HAProxy logged it. A request cut on a kept-alive client connection is not logged: HAProxy closes it silently. */
export interface LoggedRequest {
  /** When its first byte came (epoch ms). */
  at: number;
  frontend: string;
  server: string;
  status: number;
  /** Termination state: `----` for a normal end, `SH--` for a server that aborted before its answer, ... */
  termination: string;
  /** Retries (prefixed with + when redispatched to another server). */
  retries: string;
  method: string;
  path: string;
  /** The X-Lead-Marker header, or `-`. */
  marker: string;
}

/**
 * HAProxy in front of the API instances, health-checking /health/ready every 500 ms, with two
 * entrances: `plain` never retries (like a Kubernetes Service), `retrying` retries a refused
 * connection on another instance (one connection per request, so a killed instance's connections
 * are never reused). Every answer says which instance served it (`X-Served-By`); every request is logged
 * with its X-Lead-Marker (requests()).
 */
function config(plainPort: number, retryingPort: number, statsPort: number, servers: Backend[]): string {
  const checked = servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`).join('\n');
  const tracked = servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} track api/${s.name}`).join('\n');
  return `global
  maxconn 4000
  log stdout format raw local0

defaults
  mode http
  log global
  log-format "${LOG_FORMAT}"
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout check 2s
  timeout http-keep-alive 10s

frontend plain
  bind 127.0.0.1:${plainPort}
  http-request capture req.hdr(X-Lead-Marker) len 36
  default_backend api

frontend retrying
  bind 127.0.0.1:${retryingPort}
  http-request capture req.hdr(X-Lead-Marker) len 36
  default_backend api_retrying

listen stats
  bind 127.0.0.1:${statsPort}
  no log
  stats enable
  stats uri /stats

backend api
  balance roundrobin
  retries 0
  option httpchk GET /health/ready
  http-response set-header X-Served-By %[srv_name]
  default-server inter 500ms fastinter 250ms downinter 500ms fall 2 rise 2
${checked}

backend api_retrying
  balance roundrobin
  option http-server-close
  retries 3
  option redispatch 1
  retry-on conn-failure
  http-response set-header X-Served-By %[srv_name]
${tracked}
`;
}

export class HaProxy {
  private constructor(
    private readonly proc: ChildProcess,
    private readonly exited: Promise<void>,
    readonly plainUrl: string,
    readonly retryingUrl: string,
    private readonly statsUrl: string,
    private readonly logFile: string,
  ) {}

  static async start(binary: string, dir: string, servers: Backend[], logFile: string): Promise<HaProxy> {
    const [plain, retrying, stats] = [await freeLoopbackPort(), await freeLoopbackPort(), await freeLoopbackPort()];
    const cfg = path.join(dir, 'haproxy.cfg');
    await writeFile(cfg, config(plain, retrying, stats, servers));
    const fd = openSync(logFile, 'a');
    const proc = spawn(binary, ['-db', '-f', cfg], { stdio: ['ignore', fd, fd] });
    closeSync(fd);
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    await rememberPid(proc.pid!);
    const lb = new HaProxy(proc, exited, `http://127.0.0.1:${plain}`, `http://127.0.0.1:${retrying}`, `http://127.0.0.1:${stats}/stats;csv`, logFile);
    for (let i = 0; i < 100 && !(await lb.states().catch(() => null)); i++) await sleep(100);
    return lb;
  }

  /** The health-check state HAProxy holds of each server of the checked backend (UP, DOWN, ...). */
  async states(): Promise<Record<string, string>> {
    const csv = await (await fetch(this.statsUrl)).text();
    const out: Record<string, string> = {};
    for (const row of csv.split('\n').map((l) => l.split(','))) {
      if (row[0] === 'api' && row[1] !== 'FRONTEND' && row[1] !== 'BACKEND') out[row[1]] = row[17];
    }
    return out;
  }

  /** The requests logged so far (HAProxy's own messages left out). */
  async requests(): Promise<LoggedRequest[]> {
    const lines = (await readFile(this.logFile, 'utf8')).split('\n').filter((l) => /^\d{13} /.test(l));
    return lines.map((l) => {
      const [accepted, idle, frontend, server, status, termination, retries, method, path, marker] = l.split(' ');
      return { at: Number(accepted) + Math.max(0, Number(idle)), frontend, server, status: Number(status), termination, retries, method, path, marker };
    });
  }

  /** Waits until HAProxy sees `name` in the wanted state. */
  async waitFor(name: string, state: 'UP' | 'DOWN', timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const s = (await this.states().catch((): Record<string, string> => ({})))[name] ?? '';
      if (s.startsWith(state)) return;
      await sleep(100);
    }
    throw new Error(`HAProxy did not see ${name} ${state} within ${timeoutMs} ms`);
  }

  async stop(): Promise<void> {
    this.proc.kill('SIGTERM');
    if (!(await settlesWithin(this.exited, 5000))) this.proc.kill('SIGKILL');
  }
}
