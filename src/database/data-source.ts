import { Logger } from '@nestjs/common';
import { DataSource, DataSourceOptions } from 'typeorm';
import { isDatabaseUnavailable } from '../common/pg-errors';
import { MIGRATIONS } from '../../migrations';

/**
 * With read replicas: TypeORM's replication settings (a pool per server). Raw queries and
 * transactions go to the primary; only `ReadDatabase.run` asks for a replica.
 */
export function replicatedDataSourceOptions(url: string, replicaUrls: string[]): Partial<DataSourceOptions> {
  if (replicaUrls.length === 0) return {};
  return { url: undefined, replication: { master: { url }, slaves: replicaUrls.map((u) => ({ url: u })) } } as Partial<DataSourceOptions>;
}

/**
 * Opens the app's DataSource. TypeORM connects to every replica at start, so one that is down
 * would keep every instance from starting: then the app starts on the primary alone (reads
 * meant for replicas go to the primary) and says so. A replica that fails later is handled
 * per read by `ReadDatabase`.
 */
export async function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  const replication = (options as { replication?: { master: { url: string } } }).replication;
  const ds = new DataSource(options);
  try {
    return await ds.initialize();
  } catch (err) {
    if (!replication || !isDatabaseUnavailable(err)) throw err;
    await ds.driver.disconnect().catch(() => undefined);
    new Logger('Database').warn(
      `A read replica is unreachable (${err instanceof Error ? err.message : String(err)}); starting on the primary alone, restart to use replicas again`,
    );
    const { replication: _dropped, ...primaryOnly } = options as DataSourceOptions & { replication?: unknown };
    return new DataSource({ ...primaryOnly, url: replication.master.url } as DataSourceOptions).initialize();
  }
}

/** Shared by the app, the migration CLI and the tests: one definition of how we talk to PostgreSQL. */
export function dataSourceOptions(url: string, extra: Partial<DataSourceOptions> = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: ['error', 'warn'],
    ...extra,
  } as DataSourceOptions;
}

// Any constant works; it only has to be the same for every instance of this service.
const MIGRATION_LOCK_KEY = 727_001;

/**
 * Runs pending migrations under an advisory lock, so several instances starting at once
 * do not race each other. Returns the names of the migrations applied.
 */
export async function runMigrations(url: string): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(url, { logging: ['error'] }));
  await ds.initialize();
  try {
    await ds.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const applied = await ds.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await ds.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await ds.destroy();
  }
}
