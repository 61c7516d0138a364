import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Calls recorded by the telephony platform. Every row carries its order_id and references its lead
 * through (order_id, lead_id), so leads and calls can be co-located by order on a distributed PostgreSQL.
 */
export class Calls1763810000000 implements MigrationInterface {
  name = 'Calls1763810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE call (
        id serial PRIMARY KEY,
        order_id int NOT NULL REFERENCES call_order (id),
        lead_id int NOT NULL,
        user_id int REFERENCES app_user (id),
        sip_endpoint_id int NOT NULL REFERENCES sip_endpoint (id),
        status_id int NOT NULL REFERENCES call_status (id),
        finish_initiator varchar(10) CHECK (finish_initiator IN ('agent', 'client', 'system')),
        direction varchar(10) NOT NULL CHECK (direction IN ('incoming', 'outgoing')),
        total_duration_seconds int NOT NULL CHECK (total_duration_seconds >= 0),
        wait_time_duration_seconds int NOT NULL CHECK (wait_time_duration_seconds >= 0),
        talk_time_duration_seconds int NOT NULL CHECK (talk_time_duration_seconds >= 0),
        is_predictive boolean NOT NULL DEFAULT false,
        client_phone varchar(20) NOT NULL,
        has_records boolean NOT NULL DEFAULT false,
        callback_requested boolean NOT NULL DEFAULT false,
        platform_call_id varchar(128) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        recorded_at timestamptz NOT NULL DEFAULT now(),
        CHECK (wait_time_duration_seconds + talk_time_duration_seconds <= total_duration_seconds),
        FOREIGN KEY (order_id, lead_id) REFERENCES lead (order_id, id),
        UNIQUE (order_id, platform_call_id)
      )`);
    await q.query(`CREATE INDEX call_lead_idx ON call (lead_id, id)`);
    await q.query(`CREATE INDEX call_order_idx ON call (order_id, id)`);
    await q.query(`CREATE INDEX call_user_idx ON call (user_id, id)`);
    await q.query(`CREATE INDEX call_created_idx ON call (created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE call`);
  }
}
