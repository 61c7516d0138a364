import { MigrationInterface, QueryRunner } from 'typeorm';

/** The event trigger's unpresented lead columns (see 1763900000000-events), as of the version before and this one. */
const BASE_UNPRESENTED = [
  'updated_at',
  'attempt_count',
  'job_id',
  'qualified_at',
  'previous_lead_id',
  'next_lead_id',
  'messenger_id',
  'selection_type',
  'city',
  'additional_params',
];
const unpresented = (extra: string[]) => `ARRAY[${[...BASE_UNPRESENTED, ...extra].map((c) => `'${c}'`).join(', ')}]::text[]`;

/**
 * The lead.updated trigger with its unpresented `columns`. `whenExtra` null: the function compares the row versions itself (one
 * to_jsonb of each, not two: a WHEN clause computes them again before the function does), and returns when nothing presented
 * changed; else the WHEN clause of the earlier versions, with `whenExtra` before it.
 */
async function leadUpdateEvents(q: QueryRunner, columns: string, whenExtra: string | null): Promise<void> {
  await q.query(`DROP TRIGGER event_lead_upd ON lead`);
  await q.query(`
    CREATE OR REPLACE FUNCTION event_on_lead_update() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      v_old jsonb := to_jsonb(OLD) - ${columns};
      v_new jsonb := to_jsonb(NEW);
      v_shown jsonb := v_new - ${columns};
    BEGIN
      ${whenExtra === null ? 'IF v_shown = v_old THEN RETURN NULL; END IF;' : ''}
      INSERT INTO event (type, order_id, payload)
      SELECT 'lead.updated', NEW.order_id, jsonb_build_object(
               'row', v_new || jsonb_build_object('social_a_id', NEW.social_a_id::text, 'messenger_id', NEW.messenger_id::text),
               'changed', (SELECT jsonb_agg(n.key) FROM jsonb_each(v_shown) n WHERE n.value IS DISTINCT FROM v_old -> n.key));
      RETURN NULL;
    END $$`);
  await q.query(`
    CREATE TRIGGER event_lead_upd AFTER UPDATE ON lead FOR EACH ROW
    ${whenExtra === null ? '' : `WHEN (${whenExtra}(to_jsonb(OLD) - ${columns}) IS DISTINCT FROM (to_jsonb(NEW) - ${columns}))`}
    EXECUTE FUNCTION event_on_lead_update()`);
}

/** The lead trigger of this version: a listed number holds the lead (dnc_hold_reasons), under the numbers' advisory locks. */
export const LEAD_DNC_HOLD = `
      CREATE OR REPLACE FUNCTION lead_dnc_hold() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        IF TG_OP = 'INSERT' OR OLD.planning_call_at IS NULL OR OLD.phone <> NEW.phone OR OLD.order_id <> NEW.order_id THEN
          PERFORM pg_advisory_xact_lock_shared(hashtext('dnc_entry'), hashtext(NEW.phone) & 255);
        END IF;
        IF dnc_blocks(NEW.phone, NEW.order_id, now()) THEN
          NEW.planning_call_at := NULL;
          NEW.daily_cap_until := NULL;
          NEW.dialing_hold := dnc_hold_reasons(NEW.dialing_hold);
          NEW.dialing_hold_since := date_trunc('second', now());
          IF TG_OP = 'UPDATE' THEN
            IF OLD.dialing_hold IS NOT NULL THEN NEW.dialing_hold_since := OLD.dialing_hold_since; END IF;
          END IF;
        END IF;
        RETURN NEW;
      END $$`;

/**
 * The dialing decision's stored inputs and result: `dial_after` (the moment a lead is wanted; NULL: dialling stopped) and
 * `dialing_hold` (every reason it is held, since `dialing_hold_since`) replace `planning_hold`. The do-not-call part of the rule
 * that the database applies (a lead about to be planned whose number a list covers) is `dnc_hold_reasons`, shared by the lead
 * trigger and the set-based add. Hold changes are ordinary lead updates: the row event trigger writes their events (no
 * session setting silences it), and `dialingHold` is presented, so a change of it is a `lead.updated`.
 */
export class DialingDecision1795710000000 implements MigrationInterface {
  name = 'DialingDecision1795710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "lead" ADD "dial_after" TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "lead" ADD "dialing_hold" character varying(24) array`);
    await q.query(`ALTER TABLE "lead" ADD "dialing_hold_since" TIMESTAMP WITH TIME ZONE`);
    await q.query(
      `ALTER TABLE "lead" ADD CONSTRAINT "lead_dialing_hold_check" CHECK (dialing_hold <@ ARRAY['dnc', 'no_consent', 'daily_attempt_cap']::varchar[] AND cardinality(dialing_hold) > 0)`,
    );
    // The stored state carried over as it is: no lead changes, so no event and no counter moves.
    await q.query(`ALTER TABLE lead DISABLE TRIGGER USER`);
    await q.query(`
      UPDATE lead SET
        dial_after = coalesce(planning_call_at, CASE WHEN planning_hold IS NOT NULL THEN updated_at END),
        dialing_hold = CASE WHEN planning_hold = 'dnc' THEN ARRAY['dnc']::varchar[] WHEN planning_hold = 'consent' THEN ARRAY['no_consent']::varchar[]
                            WHEN daily_cap_until > now() AND planning_call_at IS NOT NULL THEN ARRAY['daily_attempt_cap']::varchar[] END,
        dialing_hold_since = CASE WHEN planning_hold IS NOT NULL OR (daily_cap_until > now() AND planning_call_at IS NOT NULL) THEN date_trunc('second', updated_at) END`);
    await q.query(`ALTER TABLE lead ENABLE TRIGGER USER`);
    await q.query(`ALTER TABLE "lead" DROP CONSTRAINT "lead_planning_hold_check"`);
    await q.query(`ALTER TABLE "lead" DROP COLUMN "planning_hold"`);
    await q.query(`DROP FUNCTION lead_stopped_event(lead)`);
    // A listed number holds the lead: 'dnc' first, other reasons kept, no daily cap (a held lead has no call to move).
    await q.query(`
      CREATE FUNCTION dnc_hold_reasons(p_hold varchar[]) RETURNS varchar[] LANGUAGE sql IMMUTABLE AS $$
        SELECT ARRAY['dnc']::varchar[] || array_remove(array_remove(coalesce(p_hold, '{}'::varchar[]), 'dnc'), 'daily_attempt_cap')
      $$`);
    await q.query(LEAD_DNC_HOLD);
    await leadUpdateEvents(q, unpresented(['dial_after']), null);
  }

  async down(q: QueryRunner): Promise<void> {
    const byStatement = `current_setting('app.lead_events_by_statement', true) IS DISTINCT FROM 'on' AND `;
    await leadUpdateEvents(q, unpresented(['planning_hold']), byStatement);
    await q.query(`
      CREATE OR REPLACE FUNCTION lead_dnc_hold() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $$
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
    await q.query(`DROP FUNCTION dnc_hold_reasons(varchar[])`);
    await q.query(`ALTER TABLE "lead" ADD "planning_hold" character varying(8)`);
    await q.query(`ALTER TABLE "lead" ADD CONSTRAINT "lead_planning_hold_check" CHECK (planning_hold IN ('dnc', 'consent'))`);
    await q.query(`ALTER TABLE lead DISABLE TRIGGER USER`);
    await q.query(`UPDATE lead SET planning_hold = CASE WHEN 'dnc' = ANY(dialing_hold) THEN 'dnc' WHEN 'no_consent' = ANY(dialing_hold) THEN 'consent' END`);
    await q.query(`ALTER TABLE lead ENABLE TRIGGER USER`);
    await q.query(`
      CREATE FUNCTION lead_stopped_event(l lead) RETURNS jsonb LANGUAGE sql STABLE AS $$
        SELECT jsonb_build_object('row', to_jsonb(l) || jsonb_build_object('social_a_id', l.social_a_id::text, 'messenger_id', l.messenger_id::text),
                                  'changed', '["planning_call_at"]'::jsonb)
      $$`);
    await q.query(`ALTER TABLE "lead" DROP CONSTRAINT "lead_dialing_hold_check"`);
    await q.query(`ALTER TABLE "lead" DROP COLUMN "dialing_hold_since"`);
    await q.query(`ALTER TABLE "lead" DROP COLUMN "dialing_hold"`);
    await q.query(`ALTER TABLE "lead" DROP COLUMN "dial_after"`);
  }
}
