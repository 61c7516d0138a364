import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `lead_create`'s previous-lead lookup pinned to the `(order_id, phone, id)` index. PL/pgSQL keeps
 * a session's plans: a plan made while the table was young (or with stale statistics) could read
 * the order's `(order_id, created_at)` range instead, every lead of the order in the duplicate
 * window, and keep doing so on that pooled connection (seen in one bench run: 6.6 ms per create
 * in that lookup). The window condition on `created_at + interval '0 s'` cannot use that index, so the
 * lookup walks only the phone's own leads, newest first. The batch insert (lead-bulk.repository.ts)
 * does the same. Everything else is version 1763900300000 unchanged (same signature).
 */
export class LeadCreatePreviousByPhone1763900600000 implements MigrationInterface {
  name = 'LeadCreatePreviousByPhone1763900600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION lead_create(
        p_lock_key text, p_since timestamptz, p_job_id uuid,
        p_order_id int, p_phone varchar, p_lead_type varchar, p_status_id int, p_name varchar, p_source_comment text,
        p_ip varchar, p_external_id_crm_a varchar, p_external_id_crm_b varchar, p_external_id_crm_c varchar,
        p_external_id_crm_d varchar, p_create_method varchar, p_source varchar, p_planning_call_at timestamptz,
        p_priority int, p_utc_offset smallint, p_time_zone varchar, p_social_a_id bigint, p_social_b_login varchar,
        p_messenger_user_name varchar, p_messenger_phone varchar, p_messenger_id bigint, p_ad_campaign_id varchar,
        p_custom_values jsonb
      ) RETURNS int LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_id int;
        v_previous int;
      BEGIN
        -- Creates of one phone in one order, and phone changes to or from it, run one at a time.
        PERFORM pg_advisory_xact_lock(hashtextextended(p_lock_key, 0));
        -- A retried job finds the lead it made.
        IF p_job_id IS NOT NULL THEN
          SELECT l.id INTO v_id FROM lead l WHERE l.order_id = p_order_id AND l.job_id = p_job_id;
          IF v_id IS NOT NULL THEN RETURN v_id; END IF;
        END IF;
        -- The most recent lead of the phone in the window: the highest id (ids are drawn under this lock).
        -- + interval '0 s' keeps (order_id, created_at) out of the plan: only (order_id, phone, id) answers.
        IF p_since IS NOT NULL THEN
          SELECT l.id INTO v_previous FROM lead l
           WHERE l.order_id = p_order_id AND l.phone = p_phone AND l.created_at + interval '0 s' >= p_since
           ORDER BY l.id DESC LIMIT 1;
        END IF;
        INSERT INTO lead (order_id, phone, lead_type, status_id, name, source_comment, ip, external_id_crm_a,
                          external_id_crm_b, external_id_crm_c, external_id_crm_d, create_method, source, planning_call_at,
                          priority, utc_offset, time_zone, social_a_id, social_b_login, messenger_user_name, messenger_phone,
                          messenger_id, ad_campaign_id, custom_values, is_secondary, previous_lead_id, job_id)
        VALUES (p_order_id, p_phone, p_lead_type, p_status_id, p_name, p_source_comment, p_ip, p_external_id_crm_a,
                p_external_id_crm_b, p_external_id_crm_c, p_external_id_crm_d, p_create_method, p_source, p_planning_call_at,
                p_priority, p_utc_offset, p_time_zone, p_social_a_id, p_social_b_login, p_messenger_user_name, p_messenger_phone,
                p_messenger_id, p_ad_campaign_id, p_custom_values, v_previous IS NOT NULL, v_previous, p_job_id)
        ON CONFLICT (order_id, job_id) WHERE job_id IS NOT NULL DO NOTHING
        RETURNING id INTO v_id;
        IF v_id IS NULL THEN
          -- Only a job's insert can conflict: its lead was committed meanwhile (this snapshot sees it).
          SELECT l.id INTO v_id FROM lead l WHERE l.order_id = p_order_id AND l.job_id = p_job_id;
          RETURN v_id;
        END IF;
        -- Only when there is a link to make: an UPDATE of no row would still fire the counters' statement trigger.
        IF v_previous IS NOT NULL THEN
          UPDATE lead SET next_lead_id = v_id, updated_at = now() WHERE order_id = p_order_id AND id = v_previous;
        END IF;
        RETURN v_id;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION lead_create(
        p_lock_key text, p_since timestamptz, p_job_id uuid,
        p_order_id int, p_phone varchar, p_lead_type varchar, p_status_id int, p_name varchar, p_source_comment text,
        p_ip varchar, p_external_id_crm_a varchar, p_external_id_crm_b varchar, p_external_id_crm_c varchar,
        p_external_id_crm_d varchar, p_create_method varchar, p_source varchar, p_planning_call_at timestamptz,
        p_priority int, p_utc_offset smallint, p_time_zone varchar, p_social_a_id bigint, p_social_b_login varchar,
        p_messenger_user_name varchar, p_messenger_phone varchar, p_messenger_id bigint, p_ad_campaign_id varchar,
        p_custom_values jsonb
      ) RETURNS int LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_id int;
        v_previous int;
      BEGIN
        -- Creates of one phone in one order, and phone changes to or from it, run one at a time.
        PERFORM pg_advisory_xact_lock(hashtextextended(p_lock_key, 0));
        -- A retried job finds the lead it made.
        IF p_job_id IS NOT NULL THEN
          SELECT l.id INTO v_id FROM lead l WHERE l.order_id = p_order_id AND l.job_id = p_job_id;
          IF v_id IS NOT NULL THEN RETURN v_id; END IF;
        END IF;
        -- The most recent lead of the phone in the window: the highest id (ids are drawn under this lock).
        IF p_since IS NOT NULL THEN
          SELECT l.id INTO v_previous FROM lead l
           WHERE l.order_id = p_order_id AND l.phone = p_phone AND l.created_at >= p_since
           ORDER BY l.id DESC LIMIT 1;
        END IF;
        INSERT INTO lead (order_id, phone, lead_type, status_id, name, source_comment, ip, external_id_crm_a,
                          external_id_crm_b, external_id_crm_c, external_id_crm_d, create_method, source, planning_call_at,
                          priority, utc_offset, time_zone, social_a_id, social_b_login, messenger_user_name, messenger_phone,
                          messenger_id, ad_campaign_id, custom_values, is_secondary, previous_lead_id, job_id)
        VALUES (p_order_id, p_phone, p_lead_type, p_status_id, p_name, p_source_comment, p_ip, p_external_id_crm_a,
                p_external_id_crm_b, p_external_id_crm_c, p_external_id_crm_d, p_create_method, p_source, p_planning_call_at,
                p_priority, p_utc_offset, p_time_zone, p_social_a_id, p_social_b_login, p_messenger_user_name, p_messenger_phone,
                p_messenger_id, p_ad_campaign_id, p_custom_values, v_previous IS NOT NULL, v_previous, p_job_id)
        ON CONFLICT (order_id, job_id) WHERE job_id IS NOT NULL DO NOTHING
        RETURNING id INTO v_id;
        IF v_id IS NULL THEN
          -- Only a job's insert can conflict: its lead was committed meanwhile (this snapshot sees it).
          SELECT l.id INTO v_id FROM lead l WHERE l.order_id = p_order_id AND l.job_id = p_job_id;
          RETURN v_id;
        END IF;
        -- Only when there is a link to make: an UPDATE of no row would still fire the counters' statement trigger.
        IF v_previous IS NOT NULL THEN
          UPDATE lead SET next_lead_id = v_id, updated_at = now() WHERE order_id = p_order_id AND id = v_previous;
        END IF;
        RETURN v_id;
      END $$`);
  }
}
