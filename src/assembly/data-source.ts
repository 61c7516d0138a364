import { Logger } from '@nestjs/common';
import { DataSource, DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app.config';
import { SafeQueryLogger } from '../database/safe-query-logger';
import { SnakeNamingStrategy } from '../database/snake-naming.strategy';
import { openDatabase, RunningDatabase } from '../database/start-database';
import { withStartLock } from '../database/start-lock';
import { MIGRATIONS } from '../../migrations';
import { ENTITIES } from './entities';

/** Shared by the app, the migration CLI and the tests: one definition of how we talk to PostgreSQL. */
export function dataSourceOptions(url: string, extra: Partial<DataSourceOptions> = {}): DataSourceOptions {
  // Never TypeORM's own loggers: they print failing statements with their parameters (see SafeQueryLogger).
  const logger = new SafeQueryLogger();
  return {
    type: 'postgres',
    url,
    // The entities state the schema in code; migrations create it (never synchronize). The schema-drift test keeps them equal.
    entities: ENTITIES,
    namingStrategy: new SnakeNamingStrategy(),
    // Extensions are the migrations' business: TypeORM would otherwise try CREATE EXTENSION "uuid-ossp" at every start.
    installExtensions: false,
    // Generated uuids are gen_random_uuid() (built into PostgreSQL 13+, as the migrations use), not uuid-ossp's uuid_generate_v4().
    uuidExtension: 'pgcrypto',
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logger,
    // pg-pool emits `error` with the pool as `this`: the probe asks that same pool whether the server answers.
    poolErrorHandler(this: { query(sql: string): Promise<unknown> }, err: unknown) {
      logger.poolError(err, () => this.query('SELECT 1'));
    },
    ...extra,
  } as DataSourceOptions;
}

/** Applies pending migrations; the caller holds the start-up lock (start-lock.ts). Returns the names applied. */
export async function applyMigrations(url: string): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(url));
  await ds.initialize();
  try {
    const applied = await ds.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}

/**
 * Runs pending migrations under the start-up lock, so several instances (or a CLI run) starting
 * at once apply each migration once. Returns the names of the migrations applied.
 */
export function runMigrations(url: string): Promise<string[]> {
  return withStartLock(url, () => applyMigrations(url));
}

/** The database the service runs on, with pending migrations applied. */
export async function startDatabase(config: AppConfig): Promise<RunningDatabase> {
  const logger = new Logger('Database');
  const db = await openDatabase(config, logger);
  const applied = await runMigrations(db.url);
  if (applied.length > 0) logger.log(`migrations applied: ${applied.join(', ')}`);
  return db;
}
