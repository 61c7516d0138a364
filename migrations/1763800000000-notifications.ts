import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notifications and their per-recipient, per-channel deliveries. Every recipient gets an `inbox`
 * row (the notification is in the user's in-app inbox at once); `email` and `messenger` rows are
 * the outbox, worked by the `notification.deliver` job queue until `sent` or `failed`, or stored
 * as `skipped` when the channel is not configured on the instance that stored them.
 */
export class Notifications1763800000000 implements MigrationInterface {
  name = 'Notifications1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notification (
        id serial PRIMARY KEY,
        scope varchar(16) NOT NULL CHECK (scope IN ('group', 'private', 'public')),
        type varchar(16) NOT NULL CHECK (type IN ('default', 'urgent')),
        level varchar(16) NOT NULL CHECK (level IN ('default', 'success', 'warning', 'danger')),
        title varchar(255) NOT NULL,
        text varchar(4000) NOT NULL,
        target_group varchar(32)
          CHECK (target_group IN ('client', 'call-center', 'call-center-senior', 'arbitration', 'moderator', 'admin')),
        target_user_id int REFERENCES app_user (id) ON DELETE SET NULL,
        recipient_count int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((scope = 'group') = (target_group IS NOT NULL))
      )`);
    await q.query(`
      CREATE TABLE notification_delivery (
        id bigserial PRIMARY KEY,
        notification_id int NOT NULL REFERENCES notification (id) ON DELETE CASCADE,
        user_id int NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
        channel varchar(16) NOT NULL CHECK (channel IN ('inbox', 'email', 'messenger')),
        status varchar(16) NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'skipped', 'delivered')),
        -- The e-mail address or chat id as it was when the notification was stored.
        address varchar(254),
        attempts int NOT NULL DEFAULT 0,
        last_error varchar(1000),
        sent_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (notification_id, user_id, channel)
      )`);
    // A user's notifications, paged by notification id (the management list).
    await q.query(`CREATE INDEX notification_delivery_user_idx ON notification_delivery (user_id, channel, notification_id)`);
    // Outbox rows still to deliver (small: only unsettled rows are indexed).
    await q.query(`CREATE INDEX notification_delivery_pending_idx ON notification_delivery (id) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE notification_delivery`);
    await q.query(`DROP TABLE notification`);
  }
}
