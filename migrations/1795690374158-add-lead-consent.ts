import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddLeadConsent1795690374158 implements MigrationInterface {
  name = 'AddLeadConsent1795690374158';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "call_order" ADD "consent_required" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE "call_order" ADD "max_attempts_per_day" integer`);
    await q.query(`ALTER TABLE "lead" ADD "consent" jsonb`);
    await q.query(`ALTER TABLE "call_order" ADD CONSTRAINT "call_order_max_attempts_per_day_check" CHECK (max_attempts_per_day BETWEEN 1 AND 50)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "call_order" DROP CONSTRAINT "call_order_max_attempts_per_day_check"`);
    await q.query(`ALTER TABLE "lead" DROP COLUMN "consent"`);
    await q.query(`ALTER TABLE "call_order" DROP COLUMN "max_attempts_per_day"`);
    await q.query(`ALTER TABLE "call_order" DROP COLUMN "consent_required"`);
  }
}
