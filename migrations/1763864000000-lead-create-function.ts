import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A lead create in one round trip (issue 9): `lead_create` takes the (order, phone) lock, finds
 * the lead a retried job already made or the previous lead of the phone, inserts and links, in
 * one call. Before, the service sent these as four statements in a transaction (BEGIN, lock,
 * lookup, insert + link, COMMIT: five round trips, each statement parsed and planned anew);
 * PL/pgSQL keeps its statements' plans for the session.
 *
 * Correctness rests on two properties of a VOLATILE PL/pgSQL function under READ COMMITTED:
 * each statement in it takes a new snapshot, so the lookup after the lock sees what the previous
 * holder of the lock committed; and the transaction-level advisory lock is held until the caller's
 * transaction ends (the statement itself when called outside one). The lock key is computed by
 * the caller (LeadsRepository), the same key the update path locks, so there is one definition.
 *
 * The parameters are the insert columns of LeadsRepository (INSERT_COLUMNS) in their order: a
 * column added to leads needs a new version of this function, and a call with the old list fails
 * loudly (no such function) instead of dropping a value.
 */
export class LeadCreateFunction1763864000000 implements MigrationInterface {
  name = 'LeadCreateFunction1763864000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION lead_create(
        p_lock_key text, p_since timestamptz, p_job_id uuid,
        p_order_id int, p_phone varchar, p_lead_type varchar, p_status_id int, p_name varchar, p_source_comment text,
        p_ip varchar, p_external_id_crm_a varchar, p_external_id_crm_b varchar, p_external_id_crm_c varchar,
        p_external_id_crm_d varchar, p_create_method varchar, p_source varchar, p_planning_call_at timestamptz,
        p_priority int, p_utc_offset smallint, p_social_a_id bigint, p_social_b_login varchar,
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
                          priority, utc_offset, social_a_id, social_b_login, messenger_user_name, messenger_phone,
                          messenger_id, ad_campaign_id, custom_values, is_secondary, previous_lead_id, job_id)
        VALUES (p_order_id, p_phone, p_lead_type, p_status_id, p_name, p_source_comment, p_ip, p_external_id_crm_a,
                p_external_id_crm_b, p_external_id_crm_c, p_external_id_crm_d, p_create_method, p_source, p_planning_call_at,
                p_priority, p_utc_offset, p_social_a_id, p_social_b_login, p_messenger_user_name, p_messenger_phone,
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
      DROP FUNCTION lead_create(text, timestamptz, uuid, int, varchar, varchar, int, varchar, text, varchar, varchar, varchar,
        varchar, varchar, varchar, varchar, timestamptz, int, smallint, bigint, varchar, varchar, varchar, bigint, varchar, jsonb)`);
  }
}
