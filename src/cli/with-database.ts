import { AppConfig } from '../config/app.config';
import { startDatabase } from '../assembly/data-source';

/**
 * Runs `work` against the configured database: DATABASE_URL, or the embedded one under DATA_DIR
 * (started for the duration, or shared with the service when it is running).
 */
export async function withDatabaseUrl(config: AppConfig, work: (url: string) => Promise<void>): Promise<void> {
  const db = await startDatabase(config);
  try {
    await work(db.url);
  } finally {
    await db.stop();
  }
}
