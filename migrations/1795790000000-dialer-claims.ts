import { MigrationInterface, QueryRunner } from 'typeorm';

export class DialerClaims1795790000000 implements MigrationInterface {
  name = 'DialerClaims1795790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "dialer_claim" ("order_id" integer NOT NULL, "lead_id" integer NOT NULL, "claim_token" uuid NOT NULL, "dialer_id" character varying(100) NOT NULL, "claimed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "lease_expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "dialer_claim_pkey" PRIMARY KEY ("order_id", "lead_id"))`,
    );
    await q.query(`CREATE INDEX "dialer_claim_lease_idx" ON "dialer_claim"  ("lease_expires_at") `);
    await q.query(`CREATE INDEX "dialer_claim_token_idx" ON "dialer_claim"  ("claim_token") `);
    await q.query(`ALTER TABLE "call_order" ADD "dial_weight" smallint NOT NULL DEFAULT '1'`);
    await q.query(`ALTER TABLE "call_order" ADD CONSTRAINT "call_order_dial_weight_check" CHECK (dial_weight BETWEEN 1 AND 100)`);
    // The dialer's queue of an order: priority descending, then planned time and id (a mixed order TypeORM cannot declare).
    await q.query(
      `CREATE INDEX "lead_order_dial_queue_idx" ON "lead" ("order_id", "priority" DESC, "planning_call_at", "id") WHERE planning_call_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."lead_order_dial_queue_idx"`);
    await q.query(`ALTER TABLE "call_order" DROP CONSTRAINT "call_order_dial_weight_check"`);
    await q.query(`ALTER TABLE "call_order" DROP COLUMN "dial_weight"`);
    await q.query(`DROP INDEX "public"."dialer_claim_token_idx"`);
    await q.query(`DROP INDEX "public"."dialer_claim_lease_idx"`);
    await q.query(`DROP TABLE "dialer_claim"`);
  }
}
