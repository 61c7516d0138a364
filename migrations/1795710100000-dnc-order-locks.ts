import { MigrationInterface, QueryRunner } from 'typeorm';
import { LEAD_DNC_HOLD } from './1795710000000-dialing-decision';

/**
 * The do-not-call coverage rule written once (`dnc_covers`), for the lead trigger, `dnc_blocks` and the set-based add. The race (a lead planned while its number is added or removed) is closed by row locks on the orders, which meet
 * wherever the order's row lives (on a distributed database, beside its leads), instead of advisory locks on buckets of numbers,
 * which meet only on the node that takes them. A list write locks the orders the list covers `FOR UPDATE` (the global list: every
 * order), in id order; a write that may plan a lead holds its order `FOR KEY SHARE` (the lock a lead's foreign key takes anyway)
 * before it checks the lists: the lead trigger here for inserts and new numbers, the application for updates and recorded calls.
 */
export class DncOrderLocks1795710100000 implements MigrationInterface {
  name = 'DncOrderLocks1795710100000';

  async up(q: QueryRunner): Promise<void> {
    // The coverage rule, once: whether an entry of a list (scope, its order, its client) covers a lead (its order, that order's
    // client). A plain expression, so PostgreSQL inlines it wherever it is used.
    await q.query(`
      CREATE FUNCTION dnc_covers(p_scope varchar, p_entry_order int, p_entry_client int, p_order int, p_client int) RETURNS boolean
      LANGUAGE sql IMMUTABLE AS $$
        SELECT p_scope = 'global' OR (p_scope = 'order' AND p_entry_order = p_order) OR (p_scope = 'client' AND p_entry_client = p_client)
      $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION dnc_blocks(p_phone varchar, p_order_id int, p_at timestamptz) RETURNS boolean LANGUAGE sql STABLE AS $$
        SELECT EXISTS (SELECT 1 FROM dnc_entry d WHERE d.phone = p_phone AND (d.expires_at IS NULL OR d.expires_at > p_at)
          AND dnc_covers(d.scope, d.order_id, d.client_id, p_order_id, (SELECT o.client_id FROM call_order o WHERE o.id = p_order_id)))
      $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION lead_dnc_hold() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $$
      DECLARE v_client int;
      BEGIN
        IF TG_OP = 'INSERT' OR OLD.planning_call_at IS NULL OR OLD.phone <> NEW.phone OR OLD.order_id <> NEW.order_id THEN
          -- Waits for a list write covering the order; the check below then reads what it committed.
          SELECT o.client_id INTO v_client FROM call_order o WHERE o.id = NEW.order_id FOR KEY SHARE;
        ELSE
          SELECT o.client_id INTO v_client FROM call_order o WHERE o.id = NEW.order_id;
        END IF;
        -- dnc_blocks' rule, written out so its plan is kept with the trigger's (a SQL function with a subquery is not inlined).
        IF EXISTS (SELECT 1 FROM dnc_entry d WHERE d.phone = NEW.phone AND (d.expires_at IS NULL OR d.expires_at > now())
                     AND dnc_covers(d.scope, d.order_id, d.client_id, NEW.order_id, v_client)) THEN
          NEW.planning_call_at := NULL;
          NEW.daily_cap_until := NULL;
          NEW.dialing_hold := dnc_hold_reasons(NEW.dialing_hold);
          NEW.dialing_hold_since := date_trunc('second', now());
          IF TG_OP = 'UPDATE' THEN
            IF OLD.dialing_hold IS NOT NULL THEN NEW.dialing_hold_since := OLD.dialing_hold_since; END IF;
          END IF;
        END IF;
        RETURN NEW;
      END $$`);
    // A lead created held (no consent) is checked too, so its hold names every reason (decideDialing: 'dnc' with 'no_consent').
    await q.query(`DROP TRIGGER lead_dnc_hold_ins ON lead`);
    await q.query(
      `CREATE TRIGGER lead_dnc_hold_ins BEFORE INSERT ON lead FOR EACH ROW WHEN (NEW.planning_call_at IS NOT NULL OR NEW.dialing_hold IS NOT NULL) EXECUTE FUNCTION lead_dnc_hold()`,
    );
    await q.query(`DROP FUNCTION dnc_lock(text[], boolean)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION dnc_lock(p_phones text[], p_exclusive boolean) RETURNS void LANGUAGE plpgsql VOLATILE AS $$
      DECLARE b int;
      BEGIN
        FOR b IN SELECT DISTINCT hashtext(p) & 255 FROM unnest(p_phones) p ORDER BY 1 LOOP
          IF p_exclusive THEN PERFORM pg_advisory_xact_lock(hashtext('dnc_entry'), b);
          ELSE PERFORM pg_advisory_xact_lock_shared(hashtext('dnc_entry'), b); END IF;
        END LOOP;
      END $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION dnc_blocks(p_phone varchar, p_order_id int, p_at timestamptz) RETURNS boolean LANGUAGE sql STABLE AS $$
        SELECT EXISTS (SELECT 1 FROM dnc_entry d WHERE d.phone = p_phone AND (d.expires_at IS NULL OR d.expires_at > p_at)
          AND (d.scope = 'global' OR (d.scope = 'order' AND d.order_id = p_order_id)
               OR (d.scope = 'client' AND d.client_id = (SELECT o.client_id FROM call_order o WHERE o.id = p_order_id))))
      $$`);
    await q.query(`DROP TRIGGER lead_dnc_hold_ins ON lead`);
    await q.query(
      `CREATE TRIGGER lead_dnc_hold_ins BEFORE INSERT ON lead FOR EACH ROW WHEN (NEW.planning_call_at IS NOT NULL) EXECUTE FUNCTION lead_dnc_hold()`,
    );
    await q.query(LEAD_DNC_HOLD);
    await q.query(`DROP FUNCTION dnc_covers(varchar, int, int, int, int)`);
  }
}
