import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate-limit counters: one row per (client, fixed window). Shared by every
 * instance on the database. UNLOGGED: a crash may reset the current windows,
 * which only ever lets a client through early, and the table costs no WAL.
 */
export class RateLimit1763830000000 implements MigrationInterface {
  name = 'RateLimit1763830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE rate_limit_counter (
        key varchar(200) NOT NULL,
        window_start timestamptz NOT NULL,
        hits int NOT NULL,
        PRIMARY KEY (key, window_start)
      )`);
    await q.query(`CREATE INDEX rate_limit_counter_window_idx ON rate_limit_counter (window_start)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rate_limit_counter`);
  }
}
