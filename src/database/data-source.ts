import { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../migrations';

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
