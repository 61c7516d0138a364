import { MigrationInterface, QueryRunner } from 'typeorm';
import { LeadCreatePreviousByPhone1763900600000 } from './1763900600000-lead-create-previous-by-phone';

/**
 * `lead_create` takes the lead as one jsonb row of every column but those it sets (id, links, job_id, times),
 * built by LeadsRepository from the entity; `SELECT r.*` follows the table, so a new column needs no new version.
 * Static SQL keeps its plans per session: an EXECUTE naming the row's keys cost ~0.1 ms more backend CPU per create.
 */
export class LeadCreateRow1795684548556 implements MigrationInterface {
  name = 'LeadCreateRow1795684548556';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP FUNCTION lead_create(text, timestamptz, uuid, int, varchar, varchar, int, varchar, text, varchar, varchar, varchar,
        varchar, varchar, varchar, varchar, timestamptz, int, smallint, varchar, bigint, varchar, varchar, varchar, bigint, varchar, jsonb)`);
    await q.query(`
      CREATE FUNCTION lead_create(p_lock_key text, p_since timestamptz, p_job_id uuid, p_row jsonb)
      RETURNS int LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_order_id int := (p_row->>'order_id')::int;
        v_phone varchar := p_row->>'phone';
        v_id int;
        v_previous int;
      BEGIN
        -- Creates of one phone in one order, and phone changes to or from it, run one at a time.
        PERFORM pg_advisory_xact_lock(hashtextextended(p_lock_key, 0));
        -- A retried job finds the lead it made.
        IF p_job_id IS NOT NULL THEN
          SELECT l.id INTO v_id FROM lead l WHERE l.order_id = v_order_id AND l.job_id = p_job_id;
          IF v_id IS NOT NULL THEN RETURN v_id; END IF;
        END IF;
        -- + interval '0 s' keeps (order_id, created_at) out of the plan: only (order_id, phone, id) answers.
        IF p_since IS NOT NULL THEN
          SELECT l.id INTO v_previous FROM lead l
           WHERE l.order_id = v_order_id AND l.phone = v_phone AND l.created_at + interval '0 s' >= p_since
           ORDER BY l.id DESC LIMIT 1;
        END IF;
        INSERT INTO lead
        SELECT r.* FROM jsonb_populate_record(NULL::lead, p_row || jsonb_build_object(
          'id', nextval(pg_get_serial_sequence('lead', 'id')), 'is_secondary', v_previous IS NOT NULL,
          'previous_lead_id', v_previous, 'job_id', p_job_id, 'created_at', now(), 'updated_at', now())) r
        ON CONFLICT (order_id, job_id) WHERE job_id IS NOT NULL DO NOTHING
        RETURNING id INTO v_id;
        IF v_id IS NULL THEN
          -- Only a job's insert can conflict: its lead was committed meanwhile (this snapshot sees it).
          SELECT l.id INTO v_id FROM lead l WHERE l.order_id = v_order_id AND l.job_id = p_job_id;
          RETURN v_id;
        END IF;
        -- Only when there is a link to make: an UPDATE of no row would still fire the counters' statement trigger.
        IF v_previous IS NOT NULL THEN
          UPDATE lead SET next_lead_id = v_id, updated_at = now() WHERE order_id = v_order_id AND id = v_previous;
        END IF;
        RETURN v_id;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION lead_create(text, timestamptz, uuid, jsonb)`);
    // The previous version, 27 parameters (one per insert column of its time), as 1763900600000 made it.
    await new LeadCreatePreviousByPhone1763900600000().up(q);
  }
}
