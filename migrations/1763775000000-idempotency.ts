import { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency-Key records: one per (API key, idempotency key), replayed for 24 h. */
export class Idempotency1763775000000 implements MigrationInterface {
  name = 'Idempotency1763775000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_record (
        api_key_id int NOT NULL,
        key varchar(255) NOT NULL,
        request_hash char(64) NOT NULL,
        status_code smallint,
        response jsonb,
        response_headers jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        PRIMARY KEY (api_key_id, key)
      )`);
    await q.query(`CREATE INDEX idempotency_record_created_idx ON idempotency_record (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_record`);
  }
}
