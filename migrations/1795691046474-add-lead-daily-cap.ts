import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddLeadDailyCap1795691046474 implements MigrationInterface {
  name = 'AddLeadDailyCap1795691046474';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "lead" ADD "daily_cap_until" TIMESTAMP WITH TIME ZONE`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "lead" DROP COLUMN "daily_cap_until"`);
  }
}
