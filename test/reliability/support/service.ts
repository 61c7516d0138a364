import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../../../src/database/embedded-postgres';
import { HttpClient } from './http';
import { settlesWithin, sleep } from './postgres';
import { LOG_DIR, REPO_ROOT, rememberPid } from './run-dir';

export interface ServiceOptions {
  databaseUrl: string;
  apiKey: string;
  /** A name for the log file: results/logs/<name>.log (appended to across restarts). */
  name: string;
  env?: Record<string, string>;
}

/**
 * The real service as a child process (`node dist/src/main.js`, built by the npm script), on a free
 * loopback port, its stdout and stderr captured in one file for the log check.
 */
export class ServiceProcess {
  readonly http: HttpClient;
  private exited: Promise<number | null>;
  private exitCode: number | null | undefined = undefined;

  private constructor(
    private readonly proc: ChildProcess,
    readonly port: number,
    readonly logFile: string,
    apiKey: string,
  ) {
    this.http = new HttpClient(`http://127.0.0.1:${port}`, apiKey);
    this.exited = new Promise((resolve) =>
      proc.once('exit', (code) => {
        this.exitCode = code;
        resolve(code);
      }),
    );
  }

  get pid(): number {
    return this.proc.pid!;
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  static async start(o: ServiceOptions, readyTimeoutMs = 120_000): Promise<ServiceProcess> {
    await mkdir(LOG_DIR, { recursive: true });
    const logFile = path.join(LOG_DIR, `${o.name}.log`);
    const port = await freePort();
    const fd = openSync(logFile, 'a');
    const proc = spawn(path.join(REPO_ROOT, 'node_modules', '.bin', 'node'), ['--enable-source-maps', 'dist/src/main.js'], {
      cwd: REPO_ROOT,
      // A clean environment: nothing of the test runner's (NODE_ENV, TEST_DATABASE_URL, ...) leaks in.
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/root',
        DATABASE_URL: o.databaseUrl,
        PORT: String(port),
        API_KEY: o.apiKey,
        WORKERS: '2',
        LOG_FORMAT: 'text',
        NO_COLOR: '1',
        ...o.env,
      },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    await rememberPid(proc.pid!);
    const service = new ServiceProcess(proc, port, logFile, o.apiKey);
    await service.waitReady(readyTimeoutMs);
    return service;
  }

  private async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`the service exited (code ${this.exitCode}) before it was ready:\n${this.logTail()}`);
      const r = await this.http.request('GET', '/health/ready', { timeoutMs: 2000, noKey: true }).catch(() => null);
      if (r?.status === 200) return;
      await sleep(250);
    }
    throw new Error(`the service was not ready within ${timeoutMs} ms:\n${this.logTail()}`);
  }

  logTail(lines = 30): string {
    return readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n');
  }

  /** SIGTERM (the service closes the app), SIGKILL after 20 s. */
  async stop(): Promise<void> {
    this.http.close();
    if (!this.running) return;
    this.proc.kill('SIGTERM');
    if (!(await settlesWithin(this.exited, 20_000))) {
      this.proc.kill('SIGKILL');
      await this.exited;
    }
  }
}
