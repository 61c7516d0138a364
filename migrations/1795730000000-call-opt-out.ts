import { MigrationInterface, QueryRunner } from 'typeorm';

export class CallOptOut1795730000000 implements MigrationInterface {
  name = 'CallOptOut1795730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "call" ADD "opt_out" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "call" DROP COLUMN "opt_out"`);
  }
}
