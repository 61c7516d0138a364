import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Columns of `lead` the Lead v2 object does not present: an update that changes only these
 * (attempt counters, duplicate links, updated_at, v1-only fields) is no event. Every other column
 * is presented, including columns added later (a new lead field normally shows in v2).
 */
const LEAD_UNPRESENTED_COLUMNS = [
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
const UNPRESENTED = `ARRAY[${LEAD_UNPRESENTED_COLUMNS.map((c) => `'${c}'`).join(', ')}]`;

/**
 * Events for integrators (issue 12): a transactional outbox. Every event row is written by the
 * transaction that makes the change, so it commits or rolls back with it.
 *
 * Leads, calls and failed async creates are recorded by triggers at the source: whatever writes
 * the row (v1, v2, the async worker, a recorded call re-planning its lead, a batch) emits, and the
 * sync create stays one round trip (`lead_create` is unchanged). The triggers store a raw snapshot
 * of the row (`to_jsonb`, bigints as text so JSON parsing keeps them exact) and, for updates, the
 * presented columns that changed; the public `data` is built from it when the event is read.
 * Orders (whose object joins member tables) are appended explicitly by OrdersService.
 *
 * Ordering: `position` is NULL at insert; a sequencer (`event_sequence`, one statement under an
 * advisory lock) numbers the committed events it finds without one, in insertion order (`seq`),
 * after the highest position given so far. An event is numbered only once its transaction has
 * committed, and whatever commits later is numbered later: positions only grow at the tail, so a
 * reader following `position` never skips an event (a transaction that committed out of id order
 * simply gets the next positions). `seq` is drawn when the event is written: a transaction that
 * changes a row after another one's commit writes its event later, so events of one record keep
 * their commit order. Nothing waits for other transactions (the snapshot-xmin horizon of an
 * xid-ordered design would let one long transaction anywhere on the cluster hold the feed back).
 */
export class Events1763900000000 implements MigrationInterface {
  name = 'Events1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE event (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        position bigint,
        type varchar(32) NOT NULL,
        order_id int,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Writers touch only the primary key and this small partial index; the sequencer reads it.
    await q.query(`CREATE INDEX event_unsequenced_idx ON event (seq) WHERE position IS NULL`);
    // The feed: by position, by (type, position), by (order_id, position).
    await q.query(`CREATE UNIQUE INDEX event_position_idx ON event (position) WHERE position IS NOT NULL`);
    await q.query(`CREATE INDEX event_type_position_idx ON event (type, position) WHERE position IS NOT NULL`);
    await q.query(`CREATE INDEX event_order_position_idx ON event (order_id, position) WHERE position IS NOT NULL`);
    // The highest position retention has deleted: an `after` below it asks for events that are gone (410).
    await q.query(`
      CREATE TABLE event_retention (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        pruned_through bigint NOT NULL DEFAULT 0
      )`);
    await q.query(`INSERT INTO event_retention DEFAULT VALUES`);

    /*
     * Numbers up to p_batch committed events that have no position yet, in `seq` order, after the
     * highest position given so far. PL/pgSQL under READ COMMITTED: the statements after the lock
     * take their snapshots after it, so they see every position the previous holder gave.
     */
    await q.query(`
      CREATE FUNCTION event_sequence(p_batch int) RETURNS int LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_base bigint;
        v_count int;
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtextextended('event-sequence', 0));
        SELECT coalesce(max(e.position), (SELECT r.pruned_through FROM event_retention r)) INTO v_base
          FROM event e WHERE e.position IS NOT NULL;
        UPDATE event e SET position = v_base + n.rn
          FROM (SELECT u.id, row_number() OVER (ORDER BY u.seq) AS rn
                  FROM (SELECT id, seq FROM event WHERE position IS NULL ORDER BY seq LIMIT p_batch) u) n
         WHERE e.id = n.id;
        GET DIAGNOSTICS v_count = ROW_COUNT;
        RETURN v_count;
      END $$`);

    // Leads: one event per inserted row, in id order (one INSERT per statement, however many rows).
    // jobId only for a lead made by create-async (its job row exists); a sync Idempotency-Key token has none.
    await q.query(`
      CREATE FUNCTION event_on_lead_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO event (type, order_id, payload)
        SELECT 'lead.created', n.order_id, jsonb_build_object(
                 'row', to_jsonb(n) || jsonb_build_object('social_a_id', n.social_a_id::text, 'messenger_id', n.messenger_id::text),
                 'jobId', CASE WHEN n.job_id IS NOT NULL AND EXISTS (SELECT 1 FROM lead_async_job j WHERE j.id = n.job_id) THEN n.job_id END)
          FROM new_rows n ORDER BY n.id;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER event_lead_ins AFTER INSERT ON lead REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION event_on_lead_insert()`,
    );

    // Updates: the trigger's WHEN (evaluated without calling the function) drops updates that leave every presented column as it was.
    await q.query(`
      CREATE FUNCTION event_on_lead_update() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        v_old jsonb := to_jsonb(OLD) - ${UNPRESENTED}::text[];
        v_new jsonb := to_jsonb(NEW);
      BEGIN
        INSERT INTO event (type, order_id, payload)
        SELECT 'lead.updated', NEW.order_id, jsonb_build_object(
                 'row', v_new || jsonb_build_object('social_a_id', NEW.social_a_id::text, 'messenger_id', NEW.messenger_id::text),
                 'changed', (SELECT jsonb_agg(n.key) FROM jsonb_each(v_new - ${UNPRESENTED}::text[]) n
                              WHERE n.value IS DISTINCT FROM v_old -> n.key));
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER event_lead_upd AFTER UPDATE ON lead FOR EACH ROW
      WHEN ((to_jsonb(OLD) - ${UNPRESENTED}::text[]) IS DISTINCT FROM (to_jsonb(NEW) - ${UNPRESENTED}::text[]))
      EXECUTE FUNCTION event_on_lead_update()`);

    // Calls: one event per recorded call (a retried delivery that inserts nothing emits nothing).
    await q.query(`
      CREATE FUNCTION event_on_call_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO event (type, order_id, payload)
        SELECT 'call.created', n.order_id, jsonb_build_object('row', to_jsonb(n)) FROM new_rows n ORDER BY n.id;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER event_call_ins AFTER INSERT ON call REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION event_on_call_insert()`,
    );

    // An accepted async create that failed, however it was marked failed (validation, retries exhausted, lost job).
    await q.query(`
      CREATE FUNCTION event_on_lead_job_failed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO event (type, order_id, payload)
        VALUES ('lead.create_failed', NEW.order_id, jsonb_build_object('jobId', NEW.id, 'orderId', NEW.order_id, 'errors', NEW.errors));
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER event_lead_job_failed AFTER UPDATE ON lead_async_job FOR EACH ROW
      WHEN (NEW.state = 'failed' AND OLD.state IS DISTINCT FROM 'failed')
      EXECUTE FUNCTION event_on_lead_job_failed()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER event_lead_job_failed ON lead_async_job`);
    await q.query(`DROP TRIGGER event_call_ins ON call`);
    await q.query(`DROP TRIGGER event_lead_upd ON lead`);
    await q.query(`DROP TRIGGER event_lead_ins ON lead`);
    await q.query(`DROP FUNCTION event_on_lead_job_failed()`);
    await q.query(`DROP FUNCTION event_on_call_insert()`);
    await q.query(`DROP FUNCTION event_on_lead_update()`);
    await q.query(`DROP FUNCTION event_on_lead_insert()`);
    await q.query(`DROP FUNCTION event_sequence(int)`);
    await q.query(`DROP TABLE event_retention`);
    await q.query(`DROP TABLE event`);
  }
}
