import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { createApp } from '../../src/app.setup';
import { loadConfig } from '../../src/config/app.config';
import { runMigrations } from '../../src/assembly/data-source';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { ApiKeysService } from '../../src/modules/auth/api-keys.service';
import { DemoSeeder } from '../../src/database/seed/demo-seeder';

export interface BenchDatabase {
  url: string;
  close(): Promise<void>;
}

export interface BenchApp {
  url: string;
  apiKey: string;
  ds: DataSource;
  /** Loads the demo dataset (reference data, orders, leads, calls). */
  seed(): Promise<void>;
  close(): Promise<void>;
}

/** A throwaway, migrated database: on BENCH_DATABASE_URL's server when set, else an embedded one. */
export async function startBenchDatabase(): Promise<BenchDatabase> {
  let adminUrl = process.env.BENCH_DATABASE_URL;
  let stopEmbedded = (): Promise<void> => Promise.resolve();
  let dir: string | undefined;
  if (!adminUrl) {
    dir = await mkdtemp(path.join(tmpdir(), 'cc-bench-pg-'));
    await chmod(dir, 0o755);
    const pg = await startEmbeddedPostgres({ dataDir: dir, ephemeral: true });
    adminUrl = pg.url;
    stopEmbedded = pg.stop;
  }
  const name = `cc_bench_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  await runMigrations(url);
  return {
    url,
    close: async () => {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      await stopEmbedded();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The real application listening on a free loopback port. */
export async function startBenchApp(databaseUrl: string, env: Record<string, string> = {}, opts: { infoLogs?: boolean } = {}): Promise<BenchApp> {
  const config = loadConfig({ WORKERS: '2', ...env });
  const logger = opts.infoLogs ? (['error', 'warn', 'log'] as const) : (['error'] as const);
  const app = await createApp(AppModule.register({ config, databaseUrl }), { logger: [...logger] });
  await app.listen(0, '127.0.0.1');
  const keys = app.get(ApiKeysService);
  const { key } = await keys.create(`bench-${Date.now()}`, ['api', 'admin', 'telephony']);
  const address = app.getHttpServer().address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    apiKey: key,
    ds: app.get(DataSource),
    seed: async () => void (await app.get(DemoSeeder).run()),
    close: () => app.close(),
  };
}

export function machine(): string {
  return `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}
