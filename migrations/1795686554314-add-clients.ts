import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddClients1795686554314 implements MigrationInterface {
  name = 'AddClients1795686554314';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "client" ("id" SERIAL NOT NULL, "name" character varying(255) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "client_pkey" PRIMARY KEY ("id"))`,
    );
    // Names are unique ignoring case: an expression index, which the entity cannot state.
    await q.query(`CREATE UNIQUE INDEX "client_name_lower_key" ON "client" (lower(name))`);
    await q.query(`ALTER TABLE "api_key" ADD "client_id" integer`);
    await q.query(`ALTER TABLE "call_order" ADD "client_id" integer`);
    await q.query(`ALTER TABLE "webhook" ADD "client_id" integer`);
    await q.query(`CREATE INDEX "call_order_client_id_idx" ON "call_order"  ("client_id", "id") WHERE client_id IS NOT NULL`);
    await q.query(
      `ALTER TABLE "api_key" ADD CONSTRAINT "api_key_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "client"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "call_order" ADD CONSTRAINT "call_order_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "client"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "webhook" ADD CONSTRAINT "webhook_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "client"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook" DROP CONSTRAINT "webhook_client_id_fkey"`);
    await q.query(`ALTER TABLE "call_order" DROP CONSTRAINT "call_order_client_id_fkey"`);
    await q.query(`ALTER TABLE "api_key" DROP CONSTRAINT "api_key_client_id_fkey"`);
    await q.query(`DROP INDEX "public"."call_order_client_id_idx"`);
    await q.query(`ALTER TABLE "webhook" DROP COLUMN "client_id"`);
    await q.query(`ALTER TABLE "call_order" DROP COLUMN "client_id"`);
    await q.query(`ALTER TABLE "api_key" DROP COLUMN "client_id"`);
    await q.query(`DROP INDEX "public"."client_name_lower_key"`);
    await q.query(`DROP TABLE "client"`);
  }
}
