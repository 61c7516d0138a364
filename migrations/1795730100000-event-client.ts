import { MigrationInterface, QueryRunner } from 'typeorm';

export class EventClient1795730100000 implements MigrationInterface {
  name = 'EventClient1795730100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "event" ADD "client_id" integer`);
    await q.query(`CREATE INDEX "event_client_position_idx" ON "event"  ("client_id", "position") WHERE position IS NOT NULL AND client_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."event_client_position_idx"`);
    await q.query(`ALTER TABLE "event" DROP COLUMN "client_id"`);
  }
}
