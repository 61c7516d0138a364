import { MigrationInterface, QueryRunner } from 'typeorm';
import { LeadCreateFunction1763864000000 } from './1763864000000-lead-create-function';

/**
 * `lead_create` with `p_time_zone` (this version's signature). `previousInWindow` is the window
 * condition of the previous-lead lookup: the one thing a later version (1763900600000) changes.
 */
export function leadCreateWithTimeZoneSql(previousInWindow = 'l.created_at >= p_since'): string {
  return `
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
           WHERE l.order_id = p_order_id AND l.phone = p_phone AND ${previousInWindow}
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
      END $$`;
}

/**
 * Real time zones (issue 14): a lead's IANA zone (`lead.time_zone`, null = the fixed `utc_offset`)
 * and an order's default zone (`call_order.default_time_zone`, null = `default_utc_offset`). Names
 * are checked by the service against the runtime's IANA data (Intl), not here: a zone the
 * database does not know (its tzdata may be older) must not refuse a lead the API accepted.
 *
 * `lead_create` gains `p_time_zone` after `p_utc_offset` (LeadsRepository.INSERT_COLUMNS); every
 * other step is identical to version 1763864000000: lock, job lookup, previous lookup, insert, link.
 *
 * `lead_order_planning_idx` lets the order stats count due leads (planning_call_at <= now) and
 * the next hour's calls by a range of one index, never by reading the order's leads.
 */
export class LeadTimeZones1763900300000 implements MigrationInterface {
  name = 'LeadTimeZones1763900300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE lead ADD COLUMN time_zone varchar(64) NULL`);
    await q.query(`ALTER TABLE call_order ADD COLUMN default_time_zone varchar(64) NULL`);
    await q.query(`CREATE INDEX lead_order_planning_idx ON lead (order_id, planning_call_at) WHERE planning_call_at IS NOT NULL`);
    await q.query(`
      DROP FUNCTION lead_create(text, timestamptz, uuid, int, varchar, varchar, int, varchar, text, varchar, varchar, varchar,
        varchar, varchar, varchar, varchar, timestamptz, int, smallint, bigint, varchar, varchar, varchar, bigint, varchar, jsonb)`);
    await q.query(leadCreateWithTimeZoneSql());
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP FUNCTION lead_create(text, timestamptz, uuid, int, varchar, varchar, int, varchar, text, varchar, varchar, varchar,
        varchar, varchar, varchar, varchar, timestamptz, int, smallint, varchar, bigint, varchar, varchar, varchar, bigint, varchar, jsonb)`);
    await q.query(`DROP INDEX lead_order_planning_idx`);
    await q.query(`ALTER TABLE call_order DROP COLUMN default_time_zone`);
    await q.query(`ALTER TABLE lead DROP COLUMN time_zone`);
    // The previous version, as migration 1763864000000 created it.
    await new LeadCreateFunction1763864000000().up(q);
  }
}
