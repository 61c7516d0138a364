import { Logger } from '@nestjs/common';
import { Client } from 'pg';

// Any constant works; it only has to be the same for every instance of this service.
const START_LOCK_KEY = 727_001;
const POLL_MS = 250;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` while this process holds the start-up lock: a session-level advisory lock on a
 * connection of its own, so instances starting together migrate, seed and register keys one after
 * the other, and each later one finds nothing left to do.
 *
 * Waiters poll with pg_try_advisory_lock instead of blocking in pg_advisory_lock: a blocked
 * statement keeps a snapshot open, which CREATE INDEX CONCURRENTLY in the holder's migration
 * waits for, while the waiter waits for the holder: PostgreSQL reports that cycle as a deadlock.
 */
export async function withStartLock<T>(url: string, work: () => Promise<T>, logger = new Logger('Database')): Promise<T> {
  const lock = new Client({ connectionString: url });
  // A connection lost while we hold the lock ends the lock too; the work itself then reports the outage.
  lock.on('error', (err: Error) => logger.warn(`start-up lock connection: ${err.message}`));
  await lock.connect();
  try {
    let announced = false;
    for (;;) {
      const { rows } = await lock.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [START_LOCK_KEY]);
      if (rows[0].locked) break;
      if (!announced) logger.log('another instance is starting up (migrations, seed): waiting for it');
      announced = true;
      await sleep(POLL_MS);
    }
    try {
      return await work();
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [START_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await lock.end().catch(() => undefined);
  }
}
