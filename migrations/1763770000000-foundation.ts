import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1763770000000 implements MigrationInterface {
  name = 'Foundation1763770000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_key (
        id serial PRIMARY KEY,
        name varchar(100) NOT NULL,
        key_prefix varchar(16) NOT NULL,
        key_hash char(64) NOT NULL UNIQUE,
        scopes text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        last_used_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_key_prefix_idx ON api_key (key_prefix) WHERE revoked_at IS NULL`);
    await q.query(`CREATE UNIQUE INDEX api_key_name_active_idx ON api_key (name) WHERE revoked_at IS NULL`);
    await q.query(`
      CREATE TABLE demo_seed_step (
        name varchar(100) PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Job-queue consumers announce themselves here, so any instance can report the fleet's consumers.
    await q.query(`
      CREATE TABLE queue_consumer (
        instance_id uuid NOT NULL,
        queue_name varchar(100) NOT NULL,
        consumers int NOT NULL,
        seen_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (instance_id, queue_name)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE queue_consumer`);
    await q.query(`DROP TABLE demo_seed_step`);
    await q.query(`DROP TABLE api_key`);
  }
}
