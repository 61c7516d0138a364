import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API_KEY rotation schedules the replaced key's revocation ahead (revoked_at in the future), so
 * "active" is now `revoked_at IS NULL OR revoked_at > now()`: the lookup index covers every key
 * (a partial index on `revoked_at IS NULL` would miss keys in their grace period). The table is tiny.
 */
export class ApiKeyRotation1763863000000 implements MigrationInterface {
  name = 'ApiKeyRotation1763863000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX api_key_prefix_idx`);
    await q.query(`CREATE INDEX api_key_prefix_idx ON api_key (key_prefix)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX api_key_prefix_idx`);
    await q.query(`CREATE INDEX api_key_prefix_idx ON api_key (key_prefix) WHERE revoked_at IS NULL`);
  }
}
