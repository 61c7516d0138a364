import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddDncLists1795690350642 implements MigrationInterface {
  name = 'AddDncLists1795690350642';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "dnc_entry" ("id" SERIAL NOT NULL, "phone" character varying(16) NOT NULL, "scope" character varying(8) NOT NULL, "order_id" integer, "client_id" integer, "expires_at" TIMESTAMP WITH TIME ZONE, "reason" character varying(255), "source" character varying(8) NOT NULL DEFAULT 'api', "call_id" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "dnc_entry_phone_check" CHECK (phone ~ '^\\+[1-9][0-9]{6,14}$'), CONSTRAINT "dnc_entry_owner_check" CHECK ((scope = 'global' AND order_id IS NULL AND client_id IS NULL) OR (scope = 'client' AND client_id IS NOT NULL AND order_id IS NULL) OR (scope = 'order' AND order_id IS NOT NULL AND client_id IS NULL)), CONSTRAINT "dnc_entry_source_check" CHECK (source IN ('api', 'call')), CONSTRAINT "dnc_entry_scope_check" CHECK (scope IN ('global', 'client', 'order')), CONSTRAINT "dnc_entry_pkey" PRIMARY KEY ("id"))`,
    );
    // One entry per number and list (the owner is order_id or client_id): an expression index, which the entity cannot state.
    await q.query(`CREATE UNIQUE INDEX "dnc_entry_phone_owner_key" ON "dnc_entry" (phone, scope, coalesce(order_id, client_id, 0))`);
    await q.query(
      `ALTER TABLE "dnc_entry" ADD CONSTRAINT "dnc_entry_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "call_order"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "dnc_entry" ADD CONSTRAINT "dnc_entry_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "client"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "dnc_entry" DROP CONSTRAINT "dnc_entry_client_id_fkey"`);
    await q.query(`ALTER TABLE "dnc_entry" DROP CONSTRAINT "dnc_entry_order_id_fkey"`);
    await q.query(`DROP INDEX "public"."dnc_entry_phone_owner_key"`);
    await q.query(`DROP TABLE "dnc_entry"`);
  }
}
