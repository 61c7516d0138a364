import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Order codes are unique within a client, not across clients: a code taken by another client's order is no conflict (a client key
 * must learn nothing of other clients). Orders of no client share one namespace. Down fails while two clients share a code.
 */
export class OrderCodePerClient1795720000000 implements MigrationInterface {
  name = 'OrderCodePerClient1795720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "call_order" DROP CONSTRAINT "call_order_code_key"`);
    await q.query(`CREATE UNIQUE INDEX "call_order_own_code_key" ON "call_order"  ("code") WHERE client_id IS NULL`);
    await q.query(`CREATE UNIQUE INDEX "call_order_client_code_key" ON "call_order"  ("client_id", "code") WHERE client_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."call_order_client_code_key"`);
    await q.query(`DROP INDEX "public"."call_order_own_code_key"`);
    await q.query(`ALTER TABLE "call_order" ADD CONSTRAINT "call_order_code_key" UNIQUE ("code")`);
  }
}
