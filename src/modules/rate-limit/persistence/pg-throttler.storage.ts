import { describeDatabaseError, isDatabaseUnavailable } from '../../../common/pg-errors';
import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { DataSource } from 'typeorm';

const SWEEP_EVERY_MS = 60_000;

/**
 * Fixed-window counters in PostgreSQL, so all instances share a client's budget (PRODUCT.md: never in process memory). One statement
 * per request, the window from the database clock so skewed instances agree; windows older than twice the ttl swept about once a minute.
 */
export class PgThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('RateLimit');
  private lastSweep = Date.now();
  private lastWarning = 0;

  constructor(private readonly ds: DataSource) {}

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    this.maybeSweep(ttl);
    try {
      const rows: { hits: number; secondsLeft: number }[] = await this.ds.query(
        `INSERT INTO rate_limit_counter AS c (key, window_start, hits)
         VALUES ($1, to_timestamp(floor(extract(epoch FROM clock_timestamp()) * 1000 / $2) * $2 / 1000.0), 1)
         ON CONFLICT (key, window_start) DO UPDATE SET hits = c.hits + 1
         RETURNING c.hits, greatest(1, ceil(extract(epoch FROM c.window_start - clock_timestamp()) + $2 / 1000.0))::int AS "secondsLeft"`,
        [key, ttl],
      );
      const { hits, secondsLeft } = rows[0];
      const isBlocked = hits > limit;
      return { totalHits: hits, timeToExpire: secondsLeft, isBlocked, timeToBlockExpire: isBlocked ? secondsLeft : 0 };
    } catch (err) {
      // A limiter must not take the API down with it: fail open, the request goes on and
      // meets the database outage (503) or succeeds if the failure was transient.
      // An outage is logged once by the pool's outage log; anything else at most every 10 s, as codes.
      if (!isDatabaseUnavailable(err) && Date.now() - this.lastWarning > 10_000) {
        this.lastWarning = Date.now();
        this.logger.warn(`Rate-limit counter unavailable, not limiting: ${describeDatabaseError(err)}`);
      }
      return { totalHits: 0, timeToExpire: Math.ceil(ttl / 1000), isBlocked: false, timeToBlockExpire: 0 };
    }
  }

  private maybeSweep(ttl: number): void {
    if (Date.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    this.ds.query(`DELETE FROM rate_limit_counter WHERE window_start < now() - make_interval(secs => $1)`, [(2 * ttl) / 1000]).catch(() => undefined);
  }
}
