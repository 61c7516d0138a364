import { MigrationInterface, QueryRunner } from 'typeorm';

/** The event trigger's unpresented lead columns (see 1763900000000-events), with planning_hold: a hold alone is no event. */
const UNPRESENTED = (extra: string[]) =>
  `ARRAY[${['updated_at', 'attempt_count', 'job_id', 'qualified_at', 'previous_lead_id', 'next_lead_id', 'messenger_id', 'selection_type', 'city', 'additional_params', ...extra].map((c) => `'${c}'`).join(', ')}]::text[]`;

/** The trigger skips a statement that writes its own events (the do-not-call stop of many leads, set-based). */
const BY_STATEMENT = `current_setting('app.lead_events_by_statement', true) IS DISTINCT FROM 'on'`;

async function leadUpdateEvents(q: QueryRunner, unpresented: string, byStatement: boolean): Promise<void> {
  await q.query(`DROP TRIGGER event_lead_upd ON lead`);
  await q.query(`
    CREATE OR REPLACE FUNCTION event_on_lead_update() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      v_old jsonb := to_jsonb(OLD) - ${unpresented};
      v_new jsonb := to_jsonb(NEW);
    BEGIN
      INSERT INTO event (type, order_id, payload)
      SELECT 'lead.updated', NEW.order_id, jsonb_build_object(
               'row', v_new || jsonb_build_object('social_a_id', NEW.social_a_id::text, 'messenger_id', NEW.messenger_id::text),
               'changed', (SELECT jsonb_agg(n.key) FROM jsonb_each(v_new - ${unpresented}) n
                            WHERE n.value IS DISTINCT FROM v_old -> n.key));
      RETURN NULL;
    END $$`);
  await q.query(`
    CREATE TRIGGER event_lead_upd AFTER UPDATE ON lead FOR EACH ROW
    WHEN (${byStatement ? `${BY_STATEMENT} AND ` : ''}(to_jsonb(OLD) - ${unpresented}) IS DISTINCT FROM (to_jsonb(NEW) - ${unpresented}))
    EXECUTE FUNCTION event_on_lead_update()`);
}

/**
 * Do-not-call entries hold leads in the database, whatever path writes them: a BEFORE trigger clears the planned call of a
 * lead an active entry covers and marks it `planning_hold = 'dnc'`. Writers of entries (add, remove, opt-out, expiry) take
 * exclusive locks on the phones' buckets; a write that may plan a lead takes the bucket's shared lock, so neither misses the other.
 */
export class PlanningHold1795694907738 implements MigrationInterface {
  name = 'PlanningHold1795694907738';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "dnc_entry" ADD "expiry_applied" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE "lead" ADD "planning_hold" character varying(8)`);
    await q.query(`CREATE INDEX "dnc_entry_pending_expiry_idx" ON "dnc_entry"  ("expires_at") WHERE expires_at IS NOT NULL AND NOT expiry_applied`);
    await q.query(`ALTER TABLE "lead" ADD CONSTRAINT "lead_planning_hold_check" CHECK (planning_hold IN ('dnc', 'consent'))`);
    // Whether an active entry of the global list, the order's client's list or the order's list covers the phone at p_at.
    await q.query(`
      CREATE FUNCTION dnc_blocks(p_phone varchar, p_order_id int, p_at timestamptz) RETURNS boolean LANGUAGE sql STABLE AS $$
        SELECT EXISTS (SELECT 1 FROM dnc_entry d WHERE d.phone = p_phone AND (d.expires_at IS NULL OR d.expires_at > p_at)
          AND (d.scope = 'global' OR (d.scope = 'order' AND d.order_id = p_order_id)
               OR (d.scope = 'client' AND d.client_id = (SELECT o.client_id FROM call_order o WHERE o.id = p_order_id))))
      $$`);
    // 256 buckets of phones under one advisory key space: a batch or a list write takes at most 256 locks, in bucket order.
    await q.query(`
      CREATE FUNCTION dnc_lock(p_phones text[], p_exclusive boolean) RETURNS void LANGUAGE plpgsql VOLATILE AS $$
      DECLARE b int;
      BEGIN
        FOR b IN SELECT DISTINCT hashtext(p) & 255 FROM unnest(p_phones) p ORDER BY 1 LOOP
          IF p_exclusive THEN PERFORM pg_advisory_xact_lock(hashtext('dnc_entry'), b);
          ELSE PERFORM pg_advisory_xact_lock_shared(hashtext('dnc_entry'), b); END IF;
        END LOOP;
      END $$`);
    // A lead about to be planned: the shared lock of its phone's bucket (an insert, a new phone or order, or a call planned again), then the check.
    await q.query(`
      CREATE FUNCTION lead_dnc_hold() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        IF TG_OP = 'INSERT' OR OLD.planning_call_at IS NULL OR OLD.phone <> NEW.phone OR OLD.order_id <> NEW.order_id THEN
          PERFORM pg_advisory_xact_lock_shared(hashtext('dnc_entry'), hashtext(NEW.phone) & 255);
        END IF;
        IF dnc_blocks(NEW.phone, NEW.order_id, now()) THEN
          NEW.planning_call_at := NULL;
          NEW.planning_hold := 'dnc';
        ELSE
          NEW.planning_hold := NULL;
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(
      `CREATE TRIGGER lead_dnc_hold_ins BEFORE INSERT ON lead FOR EACH ROW WHEN (NEW.planning_call_at IS NOT NULL) EXECUTE FUNCTION lead_dnc_hold()`,
    );
    await q.query(`
      CREATE TRIGGER lead_dnc_hold_upd BEFORE UPDATE OF planning_call_at, phone, order_id ON lead FOR EACH ROW
      WHEN (NEW.planning_call_at IS NOT NULL AND (OLD.planning_call_at IS DISTINCT FROM NEW.planning_call_at OR OLD.phone <> NEW.phone OR OLD.order_id <> NEW.order_id))
      EXECUTE FUNCTION lead_dnc_hold()`);
    await leadUpdateEvents(q, UNPRESENTED(['planning_hold']), true);
    // A lead.updated event of a stopped lead, as event_on_lead_update writes it, for statements that write their own events.
    await q.query(`
      CREATE FUNCTION lead_stopped_event(l lead) RETURNS jsonb LANGUAGE sql STABLE AS $$
        SELECT jsonb_build_object('row', to_jsonb(l) || jsonb_build_object('social_a_id', l.social_a_id::text, 'messenger_id', l.messenger_id::text),
                                  'changed', '["planning_call_at"]'::jsonb)
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION lead_stopped_event(lead)`);
    await leadUpdateEvents(q, UNPRESENTED([]), false);
    await q.query(`DROP TRIGGER lead_dnc_hold_upd ON lead`);
    await q.query(`DROP TRIGGER lead_dnc_hold_ins ON lead`);
    await q.query(`DROP FUNCTION lead_dnc_hold()`);
    await q.query(`DROP FUNCTION dnc_lock(text[], boolean)`);
    await q.query(`DROP FUNCTION dnc_blocks(varchar, int, timestamptz)`);
    await q.query(`ALTER TABLE "lead" DROP CONSTRAINT "lead_planning_hold_check"`);
    await q.query(`DROP INDEX "public"."dnc_entry_pending_expiry_idx"`);
    await q.query(`ALTER TABLE "lead" DROP COLUMN "planning_hold"`);
    await q.query(`ALTER TABLE "dnc_entry" DROP COLUMN "expiry_applied"`);
  }
}
