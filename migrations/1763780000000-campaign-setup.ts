import { MigrationInterface, QueryRunner } from 'typeorm';

/** Everything an order is made of: users, agent groups, numbers, scenarios, attempt groups, custom fields, orders. */
export class CampaignSetup1763780000000 implements MigrationInterface {
  name = 'CampaignSetup1763780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE app_user (
        id serial PRIMARY KEY,
        name varchar(100),
        last_name varchar(100),
        email varchar(254) NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        access_group varchar(32) NOT NULL DEFAULT ''
          CHECK (access_group IN ('', 'client', 'call-center', 'call-center-senior', 'arbitration', 'moderator', 'admin')),
        web_rtc_is_enabled boolean NOT NULL DEFAULT false,
        interface_language_code varchar(8) NOT NULL DEFAULT 'ru' CHECK (interface_language_code IN ('ru', 'gb')),
        language_skills_code text[] NOT NULL DEFAULT '{}',
        auto_answer smallint NOT NULL DEFAULT 0 CHECK (auto_answer BETWEEN -1 AND 10),
        phone_mode varchar(20) NOT NULL DEFAULT 'default' CHECK (phone_mode IN ('default', 'outgoing-only', 'incoming-only', 'predictive')),
        avatar varchar(500),
        telegram_notifications_enabled boolean NOT NULL DEFAULT false,
        telegram_chat_id varchar(64),
        telegram_notifications_priority varchar(10) CHECK (telegram_notifications_priority IN ('urgent')),
        email_notifications_enabled boolean NOT NULL DEFAULT false,
        email_notifications_priority varchar(10) CHECK (email_notifications_priority IN ('urgent')),
        last_login_at timestamptz,
        last_activity_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX app_user_email_idx ON app_user (lower(email))`);
    await q.query(`CREATE INDEX app_user_group_active_idx ON app_user (access_group, is_active, id)`);
    await q.query(`CREATE INDEX app_user_active_idx ON app_user (is_active, id)`);

    await q.query(`
      CREATE TABLE agent_group (
        id serial PRIMARY KEY,
        names jsonb NOT NULL DEFAULT '{}',
        created_by int NOT NULL DEFAULT 0,
        updated_by int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE agent_group_member (
        group_id int NOT NULL REFERENCES agent_group (id) ON DELETE CASCADE,
        user_id int NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
        PRIMARY KEY (group_id, user_id)
      )`);
    await q.query(`CREATE INDEX agent_group_member_user_idx ON agent_group_member (user_id, group_id)`);

    await q.query(`
      CREATE TABLE sip_endpoint (
        id serial PRIMARY KEY,
        number varchar(20) NOT NULL UNIQUE,
        title varchar(255) NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE call_scenario (
        id serial PRIMARY KEY,
        title varchar(255) NOT NULL,
        description text NOT NULL DEFAULT '',
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE call_attempt_group (
        id serial PRIMARY KEY,
        title varchar(255) NOT NULL,
        intervals int[] NOT NULL DEFAULT '{}',
        is_default boolean NOT NULL DEFAULT false,
        reset_attempts_enabled boolean NOT NULL DEFAULT false,
        repeat_last_interval boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // At most one default, enforced by the database; the service keeps exactly one.
    await q.query(`CREATE UNIQUE INDEX call_attempt_group_one_default_idx ON call_attempt_group (is_default) WHERE is_default`);

    await q.query(`
      CREATE TABLE custom_field (
        id serial PRIMARY KEY,
        title varchar(255) NOT NULL,
        type varchar(16) NOT NULL CHECK (type IN ('string', 'int', 'float', 'date', 'datetime', 'bool', 'select', 'multiselect')),
        essence varchar(16) NOT NULL CHECK (essence IN ('leads', 'orders')),
        sort int NOT NULL DEFAULT 100,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX custom_field_essence_idx ON custom_field (essence, sort, id)`);
    await q.query(`
      CREATE TABLE custom_field_option (
        id serial PRIMARY KEY,
        field_id int NOT NULL REFERENCES custom_field (id) ON DELETE CASCADE,
        code varchar(64) NOT NULL,
        title varchar(255) NOT NULL,
        sort int NOT NULL DEFAULT 100,
        UNIQUE (field_id, code)
      )`);

    await q.query(`
      CREATE TABLE call_order (
        id serial PRIMARY KEY,
        code varchar(64) NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9_-]+$'),
        service_title varchar(255) NOT NULL,
        title varchar(255) NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('success', 'secondary', 'info')),
        call_schedule jsonb NOT NULL DEFAULT '[[],[],[],[],[],[],[]]',
        call_holiday_overrides date[] NOT NULL DEFAULT '{}',
        auto_dialing_enabled boolean NOT NULL DEFAULT false,
        predictive_mode_enabled boolean NOT NULL DEFAULT false,
        ai_default_language varchar(8),
        amd_detection_enabled boolean NOT NULL DEFAULT false,
        call_record_rule varchar(32) NOT NULL DEFAULT 'client_is_connected'
          CHECK (call_record_rule IN ('client_is_connected', 'agent_is_connected')),
        sip_endpoint_usage_scheme varchar(32) NOT NULL DEFAULT 'random_default'
          CHECK (sip_endpoint_usage_scheme IN ('random_default', 'random_without_repetition', 'even_loaded', 'even_loaded_daily')),
        show_lead_contacts_to_agent boolean NOT NULL DEFAULT true,
        call_attempt_group_id int REFERENCES call_attempt_group (id),
        qualified_leads_per_day_limit int CHECK (qualified_leads_per_day_limit >= 1),
        call_scenario_id int REFERENCES call_scenario (id),
        lead_transform_enabled boolean NOT NULL DEFAULT false,
        speech_recognition_enabled boolean NOT NULL DEFAULT false,
        ignore_lead_timezone boolean NOT NULL DEFAULT false,
        -- Offset (hours) used when a lead has none and its phone does not tell; also the order's "day" for daily limits.
        default_utc_offset smallint NOT NULL DEFAULT 0 CHECK (default_utc_offset BETWEEN -12 AND 14),
        custom_values jsonb NOT NULL DEFAULT '{}',
        agent_lead_creation_is_allowed boolean NOT NULL DEFAULT false,
        agent_lead_edit_mode varchar(16) NOT NULL DEFAULT 'during-call' CHECK (agent_lead_edit_mode IN ('during-call', 'always', 'never')),
        auto_process_call boolean NOT NULL DEFAULT false,
        created_by int NOT NULL DEFAULT 0,
        updated_by int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE order_agent (
        order_id int NOT NULL REFERENCES call_order (id) ON DELETE CASCADE,
        user_id int NOT NULL REFERENCES app_user (id),
        PRIMARY KEY (order_id, user_id)
      )`);
    await q.query(`
      CREATE TABLE order_agent_group (
        order_id int NOT NULL REFERENCES call_order (id) ON DELETE CASCADE,
        group_id int NOT NULL REFERENCES agent_group (id),
        PRIMARY KEY (order_id, group_id)
      )`);
    await q.query(`
      CREATE TABLE order_sip_endpoint (
        order_id int NOT NULL REFERENCES call_order (id) ON DELETE CASCADE,
        sip_endpoint_id int NOT NULL REFERENCES sip_endpoint (id),
        position smallint NOT NULL,
        PRIMARY KEY (order_id, sip_endpoint_id)
      )`);
    await q.query(`
      CREATE TABLE order_transfer_number (
        order_id int NOT NULL REFERENCES call_order (id) ON DELETE CASCADE,
        position smallint NOT NULL,
        number varchar(32) NOT NULL,
        names jsonb NOT NULL DEFAULT '{}',
        PRIMARY KEY (order_id, position)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'order_transfer_number',
      'order_sip_endpoint',
      'order_agent_group',
      'order_agent',
      'call_order',
      'custom_field_option',
      'custom_field',
      'call_attempt_group',
      'call_scenario',
      'sip_endpoint',
      'agent_group_member',
      'agent_group',
      'app_user',
    ]) {
      await q.query(`DROP TABLE ${t}`);
    }
  }
}
