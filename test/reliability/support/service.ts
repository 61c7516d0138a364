import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { HttpClient } from './http';
import { freeLoopbackPort } from './ports';
import { settlesWithin, sleep } from './postgres';
import { LOG_DIR, REPO_ROOT, rememberPid } from './run-dir';

export interface ServiceOptions {
  databaseUrl: string;
  apiKey: string;
  /** A name for the log file: results/logs/<name>.log (appended to across restarts). */
  name: string;
  env?: Record<string, string>;
  /** A fixed port (an instance behind a load balancer comes back where the balancer looks); else a free one. */
  port?: number;
  /** A worker-only instance: ready when its probes say so (it serves no API to try the key on). */
  probesOnly?: boolean;
}

/**
 * The real service as a child process (`node dist/src/main.js`, built by the npm script), on a free
 * loopback port, its stdout and stderr captured in one file for the log check.
 */
export class ServiceProcess {
  readonly http: HttpClient;
  private readonly exitPromise: Promise<number | null>;
  private exitCode: number | null | undefined = undefined;

  private constructor(
    private readonly proc: ChildProcess,
    readonly port: number,
    readonly logFile: string,
    apiKey: string,
    /** Where this start's output begins in the (appended) log file. */
    private readonly logStart: number,
  ) {
    this.http = new HttpClient(`http://127.0.0.1:${port}`, apiKey);
    this.exitPromise = new Promise((resolve) =>
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
    for (let attempt = 1; ; attempt++) {
      const service = await ServiceProcess.spawn(o, logFile);
      try {
        await service.waitReady(readyTimeoutMs, o.probesOnly === true);
        return service;
      } catch (err) {
        // Another process took the port between the check and the listen: try another one.
        const portTaken = !service.running && /EADDRINUSE/.test(service.logTail());
        if (!portTaken || attempt >= 3) throw err;
      }
    }
  }

  private static async spawn(o: ServiceOptions, logFile: string): Promise<ServiceProcess> {
    const port = o.port ?? (await freeLoopbackPort());
    const fd = openSync(logFile, 'a');
    // Taken before the child can write: this start's output begins here.
    const logStart = statSync(logFile).size;
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
        // No drain unless a scenario asks for one: nothing balances load onto these instances.
        SHUTDOWN_DRAIN_SECONDS: '0',
        ...o.env,
      },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    await rememberPid(proc.pid!);
    return new ServiceProcess(proc, port, logFile, o.env?.API_KEY ?? o.apiKey, logStart);
  }

  /**
   * Ready = the readiness probe answers 200 and a request with this run's key is accepted (a
   * 401 would mean some other server answers on this port), while our child is still running.
   */
  private async waitReady(timeoutMs: number, probesOnly: boolean): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`the service exited (code ${this.exitCode}) before it was ready:\n${this.logTail()}`);
      const ready = await this.http.request('GET', '/health/ready', { timeoutMs: 2000, noKey: true }).catch(() => null);
      if (ready?.status === 200 && probesOnly && this.running) return;
      if (ready?.status === 200) {
        const authed = await this.http.request('GET', '/v2/order/', { timeoutMs: 5000 }).catch(() => null);
        if (authed?.status === 200 && this.running) return;
      }
      await sleep(250);
    }
    throw new Error(`the service was not ready within ${timeoutMs} ms:\n${this.logTail()}`);
  }

  /** All this start wrote. */
  log(): string {
    return readFileSync(this.logFile).subarray(this.logStart).toString('utf8');
  }

  /** The last lines this start wrote. */
  logTail(lines = 30): string {
    return this.log().split('\n').slice(-lines).join('\n');
  }

  /** Sends a signal, as an orchestrator does; `exited` tells how the process ended. */
  signal(signal: NodeJS.Signals): void {
    this.proc.kill(signal);
  }

  /** The exit code (null when a signal ended it). */
  get exited(): Promise<number | null> {
    return this.exitPromise;
  }

  /** SIGTERM (the service closes the app), SIGKILL after 20 s. */
  async stop(): Promise<void> {
    this.http.close();
    if (!this.running) return;
    this.proc.kill('SIGTERM');
    if (!(await settlesWithin(this.exitPromise, 20_000))) {
      this.proc.kill('SIGKILL');
      await this.exitPromise;
    }
  }
}
