import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each claim of an idempotency record gets a fresh owner token: only the request holding it may
 * complete or release the record, so a request whose record was taken over (it ran past the
 * abandonment window) neither deletes the new owner's record nor commits a second resource.
 * Records claimed before this migration have no owner and are completed by key as before.
 */
export class IdempotencyOwner1763863100000 implements MigrationInterface {
  name = 'IdempotencyOwner1763863100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_record ADD COLUMN owner uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_record DROP COLUMN owner`);
  }
}
