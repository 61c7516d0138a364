import { MigrationInterface, QueryRunner } from 'typeorm';

export class CallStatusOptOut1795691567482 implements MigrationInterface {
  name = 'CallStatusOptOut1795691567482';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "call_status" ADD "is_opt_out" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "call_status" DROP COLUMN "is_opt_out"`);
  }
}
