import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks and their deliveries. The dispatcher follows the event feed from the one-row cursor
 * `webhook_dispatch_cursor` and inserts a delivery per (matching active webhook, event), unique
 * per pair so a repeated dispatch creates nothing twice; each delivery keeps the exact JSON body
 * it sends (the same bytes on every retry). Delivery workers claim due rows with
 * `FOR UPDATE SKIP LOCKED` through `webhook_delivery_due_idx`.
 */
export class Webhooks1763900100000 implements MigrationInterface {
  name = 'Webhooks1763900100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook (
        id serial PRIMARY KEY,
        url varchar(2048) NOT NULL,
        events varchar(64)[] NOT NULL CHECK (cardinality(events) > 0),
        order_ids int[] NOT NULL DEFAULT '{}',
        description varchar(500) NOT NULL DEFAULT '',
        is_active boolean NOT NULL DEFAULT true,
        -- whsec_ + base64 key: kept as is, since signing needs the key itself (not a hash).
        secret varchar(128) NOT NULL,
        previous_secret varchar(128),
        previous_secret_expires_at timestamptz,
        disabled_reason varchar(500),
        disabled_at timestamptz,
        -- Start of the current run of failed attempts (null after a success): 5 days of it disable the webhook.
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE webhook_delivery (
        id bigserial PRIMARY KEY,
        webhook_id int NOT NULL REFERENCES webhook (id) ON DELETE CASCADE,
        event_id varchar(64) NOT NULL,
        type varchar(64) NOT NULL,
        -- The request body, {id, type, timestamp, data}, exactly as signed and sent.
        payload text NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts int NOT NULL DEFAULT 0,
        last_status_code int,
        last_error varchar(1000),
        next_attempt_at timestamptz,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_delivery_webhook_event_key UNIQUE (webhook_id, event_id)
      )`);
    // Due rows only: the claim reads the head of this small index.
    await q.query(`CREATE INDEX webhook_delivery_due_idx ON webhook_delivery (next_attempt_at) WHERE status = 'pending'`);
    // Retention sweep by age.
    await q.query(`CREATE INDEX webhook_delivery_created_idx ON webhook_delivery (created_at)`);
    await q.query(`
      CREATE TABLE webhook_dispatch_cursor (
        id smallint PRIMARY KEY CHECK (id = 1),
        position bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO webhook_dispatch_cursor (id, position) VALUES (1, 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_dispatch_cursor`);
    await q.query(`DROP TABLE webhook_delivery`);
    await q.query(`DROP TABLE webhook`);
  }
}
