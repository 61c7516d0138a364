import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The counters and events of `lead` and `call` written by row triggers instead of statement triggers reading transition tables.
 * A `WHEN` clause skips every row whose counted columns did not change, so a one-row update that moves nothing (most of a
 * recorded call's lead update) pays nothing, where a statement trigger paid its transition tables each time; and row triggers
 * run on a Citus shard, where transition tables are not seen (docs/scaling.md). Each counter set's SQL is what
 * CounterSet.rowTriggers() and statementTriggers('no-nested-loop') render, frozen as text: a later change is a new migration.
 */
export class RowTriggers1795800000000 implements MigrationInterface {
  name = 'RowTriggers1795800000000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of [...COUNTERS_UP, ...EVENTS_UP]) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of [...EVENTS_DOWN, ...COUNTERS_DOWN]) await q.query(sql);
  }
}

/** `lead.created` and `call.created`, one event per row in the order the rows are inserted (ascending ids). */
const EVENTS_UP = [
  `DROP TRIGGER event_lead_ins ON lead`,
  `DROP TRIGGER event_call_ins ON call`,
  `
      CREATE OR REPLACE FUNCTION event_on_lead_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO event (type, order_id, payload)
        VALUES ('lead.created', NEW.order_id, jsonb_build_object(
                 'row', to_jsonb(NEW) || jsonb_build_object('social_a_id', NEW.social_a_id::text, 'messenger_id', NEW.messenger_id::text),
                 'jobId', CASE WHEN NEW.job_id IS NOT NULL AND EXISTS (SELECT 1 FROM lead_async_job j WHERE j.id = NEW.job_id) THEN NEW.job_id END));
        RETURN NULL;
      END $$`,
  `
      CREATE OR REPLACE FUNCTION event_on_call_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO event (type, order_id, payload) VALUES ('call.created', NEW.order_id, jsonb_build_object('row', to_jsonb(NEW)));
        RETURN NULL;
      END $$`,
  `CREATE TRIGGER event_lead_ins AFTER INSERT ON lead FOR EACH ROW EXECUTE FUNCTION event_on_lead_insert()`,
  `CREATE TRIGGER event_call_ins AFTER INSERT ON call FOR EACH ROW EXECUTE FUNCTION event_on_call_insert()`,
];

/** The statement triggers and functions as the events and event-client migrations left them. */
const EVENTS_DOWN = [
  `DROP TRIGGER event_lead_ins ON lead`,
  `DROP TRIGGER event_call_ins ON call`,
  `
      CREATE OR REPLACE FUNCTION event_on_lead_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO event (type, order_id, payload)
        SELECT 'lead.created', n.order_id, jsonb_build_object(
                 'row', to_jsonb(n) || jsonb_build_object('social_a_id', n.social_a_id::text, 'messenger_id', n.messenger_id::text),
                 'jobId', CASE WHEN n.job_id IS NOT NULL AND EXISTS (SELECT 1 FROM lead_async_job j WHERE j.id = n.job_id) THEN n.job_id END)
          FROM new_rows n ORDER BY n.id;
        RETURN NULL;
      END $$`,
  `
      CREATE OR REPLACE FUNCTION event_on_call_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO event (type, order_id, payload)
        SELECT 'call.created', n.order_id, jsonb_build_object('row', to_jsonb(n)) FROM new_rows n ORDER BY n.id;
        RETURN NULL;
      END $$`,
  `CREATE TRIGGER event_lead_ins AFTER INSERT ON lead REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION event_on_lead_insert()`,
  `CREATE TRIGGER event_call_ins AFTER INSERT ON call REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION event_on_call_insert()`,
];

/** CounterSet.rowTriggers() of lead_count, lead_planning_count, call_count and call_user_count. */
const COUNTERS_UP = [
  `DROP TRIGGER lead_count_ins ON lead`,
  `DROP TRIGGER lead_count_del ON lead`,
  `DROP TRIGGER lead_count_upd ON lead`,
  `DROP FUNCTION lead_count_on_insert()`,
  `DROP FUNCTION lead_count_on_delete()`,
  `DROP FUNCTION lead_count_on_update()`,
  `
      CREATE FUNCTION lead_count_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO lead_count_delta (order_id, status_id, hour, n, min_id, max_id) VALUES (NEW.order_id, NEW.status_id, lead_count_hour_of(NEW.created_at), 1, NEW.id, NEW.id);
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION lead_count_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO lead_count_delta (order_id, status_id, hour, n, min_id, max_id) VALUES (OLD.order_id, OLD.status_id, lead_count_hour_of(OLD.created_at), -1, NULL, NULL);
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION lead_count_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.order_id = NEW.order_id AND OLD.status_id = NEW.status_id AND lead_count_hour_of(OLD.created_at) = lead_count_hour_of(NEW.created_at) THEN
          INSERT INTO lead_count_delta (order_id, status_id, hour, n, min_id, max_id) VALUES (NEW.order_id, NEW.status_id, lead_count_hour_of(NEW.created_at), 0, NEW.id, NEW.id);
          RETURN NULL;
        END IF;
        INSERT INTO lead_count_delta (order_id, status_id, hour, n, min_id, max_id) VALUES (OLD.order_id, OLD.status_id, lead_count_hour_of(OLD.created_at), -1, NULL, NULL);
        INSERT INTO lead_count_delta (order_id, status_id, hour, n, min_id, max_id) VALUES (NEW.order_id, NEW.status_id, lead_count_hour_of(NEW.created_at), 1, NEW.id, NEW.id);
        RETURN NULL;
      END $$`,
  `CREATE TRIGGER lead_count_ins AFTER INSERT ON lead FOR EACH ROW EXECUTE FUNCTION lead_count_on_insert()`,
  `CREATE TRIGGER lead_count_del AFTER DELETE ON lead FOR EACH ROW EXECUTE FUNCTION lead_count_on_delete()`,
  `CREATE TRIGGER lead_count_upd AFTER UPDATE ON lead FOR EACH ROW WHEN ((OLD.order_id, OLD.status_id, OLD.created_at) IS DISTINCT FROM (NEW.order_id, NEW.status_id, NEW.created_at)) EXECUTE FUNCTION lead_count_on_update()`,
  `DROP TRIGGER lead_planning_count_ins ON lead`,
  `DROP TRIGGER lead_planning_count_del ON lead`,
  `DROP TRIGGER lead_planning_count_upd ON lead`,
  `DROP FUNCTION lead_planning_count_on_insert()`,
  `DROP FUNCTION lead_planning_count_on_delete()`,
  `DROP FUNCTION lead_planning_count_on_update()`,
  `
      CREATE FUNCTION lead_planning_count_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO lead_planning_count_delta (order_id, hour, n, min_id, max_id) VALUES (NEW.order_id, lead_planning_count_hour_of(NEW.planning_call_at), 1, NEW.id, NEW.id);
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION lead_planning_count_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO lead_planning_count_delta (order_id, hour, n, min_id, max_id) VALUES (OLD.order_id, lead_planning_count_hour_of(OLD.planning_call_at), -1, NULL, NULL);
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION lead_planning_count_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.order_id = NEW.order_id AND lead_planning_count_hour_of(OLD.planning_call_at) = lead_planning_count_hour_of(NEW.planning_call_at) AND OLD.planning_call_at IS NOT NULL AND NEW.planning_call_at IS NOT NULL THEN
          INSERT INTO lead_planning_count_delta (order_id, hour, n, min_id, max_id) VALUES (NEW.order_id, lead_planning_count_hour_of(NEW.planning_call_at), 0, NEW.id, NEW.id);
          RETURN NULL;
        END IF;
        IF OLD.planning_call_at IS NOT NULL THEN
          INSERT INTO lead_planning_count_delta (order_id, hour, n, min_id, max_id) VALUES (OLD.order_id, lead_planning_count_hour_of(OLD.planning_call_at), -1, NULL, NULL);
        END IF;
        IF NEW.planning_call_at IS NOT NULL THEN
          INSERT INTO lead_planning_count_delta (order_id, hour, n, min_id, max_id) VALUES (NEW.order_id, lead_planning_count_hour_of(NEW.planning_call_at), 1, NEW.id, NEW.id);
        END IF;
        RETURN NULL;
      END $$`,
  `CREATE TRIGGER lead_planning_count_ins AFTER INSERT ON lead FOR EACH ROW WHEN (NEW.planning_call_at IS NOT NULL) EXECUTE FUNCTION lead_planning_count_on_insert()`,
  `CREATE TRIGGER lead_planning_count_del AFTER DELETE ON lead FOR EACH ROW WHEN (OLD.planning_call_at IS NOT NULL) EXECUTE FUNCTION lead_planning_count_on_delete()`,
  `CREATE TRIGGER lead_planning_count_upd AFTER UPDATE ON lead FOR EACH ROW WHEN ((OLD.order_id, OLD.planning_call_at) IS DISTINCT FROM (NEW.order_id, NEW.planning_call_at)) EXECUTE FUNCTION lead_planning_count_on_update()`,
  `DROP TRIGGER call_count_ins ON call`,
  `DROP TRIGGER call_count_del ON call`,
  `DROP TRIGGER call_count_upd ON call`,
  `DROP FUNCTION call_count_on_insert()`,
  `DROP FUNCTION call_count_on_delete()`,
  `DROP FUNCTION call_count_on_update()`,
  `
      CREATE FUNCTION call_count_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO call_count_delta (order_id, status_id, hour, n, min_id, max_id) VALUES (NEW.order_id, NEW.status_id, call_count_hour_of(NEW.created_at), 1, NEW.id, NEW.id);
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION call_count_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO call_count_delta (order_id, status_id, hour, n, min_id, max_id) VALUES (OLD.order_id, OLD.status_id, call_count_hour_of(OLD.created_at), -1, NULL, NULL);
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION call_count_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.order_id = NEW.order_id AND OLD.status_id = NEW.status_id AND call_count_hour_of(OLD.created_at) = call_count_hour_of(NEW.created_at) THEN
          INSERT INTO call_count_delta (order_id, status_id, hour, n, min_id, max_id) VALUES (NEW.order_id, NEW.status_id, call_count_hour_of(NEW.created_at), 0, NEW.id, NEW.id);
          RETURN NULL;
        END IF;
        INSERT INTO call_count_delta (order_id, status_id, hour, n, min_id, max_id) VALUES (OLD.order_id, OLD.status_id, call_count_hour_of(OLD.created_at), -1, NULL, NULL);
        INSERT INTO call_count_delta (order_id, status_id, hour, n, min_id, max_id) VALUES (NEW.order_id, NEW.status_id, call_count_hour_of(NEW.created_at), 1, NEW.id, NEW.id);
        RETURN NULL;
      END $$`,
  `CREATE TRIGGER call_count_ins AFTER INSERT ON call FOR EACH ROW EXECUTE FUNCTION call_count_on_insert()`,
  `CREATE TRIGGER call_count_del AFTER DELETE ON call FOR EACH ROW EXECUTE FUNCTION call_count_on_delete()`,
  `CREATE TRIGGER call_count_upd AFTER UPDATE ON call FOR EACH ROW WHEN ((OLD.order_id, OLD.status_id, OLD.created_at) IS DISTINCT FROM (NEW.order_id, NEW.status_id, NEW.created_at)) EXECUTE FUNCTION call_count_on_update()`,
  `DROP TRIGGER call_user_count_ins ON call`,
  `DROP TRIGGER call_user_count_del ON call`,
  `DROP TRIGGER call_user_count_upd ON call`,
  `DROP FUNCTION call_user_count_on_insert()`,
  `DROP FUNCTION call_user_count_on_delete()`,
  `DROP FUNCTION call_user_count_on_update()`,
  `
      CREATE FUNCTION call_user_count_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO call_user_count_delta (order_id, user_id, status_id, hour, n, min_id, max_id) VALUES (NEW.order_id, NEW.user_id, NEW.status_id, call_user_count_hour_of(NEW.created_at), 1, NEW.id, NEW.id);
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION call_user_count_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO call_user_count_delta (order_id, user_id, status_id, hour, n, min_id, max_id) VALUES (OLD.order_id, OLD.user_id, OLD.status_id, call_user_count_hour_of(OLD.created_at), -1, NULL, NULL);
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION call_user_count_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.order_id = NEW.order_id AND OLD.user_id = NEW.user_id AND OLD.status_id = NEW.status_id AND call_user_count_hour_of(OLD.created_at) = call_user_count_hour_of(NEW.created_at) AND OLD.user_id IS NOT NULL AND NEW.user_id IS NOT NULL THEN
          INSERT INTO call_user_count_delta (order_id, user_id, status_id, hour, n, min_id, max_id) VALUES (NEW.order_id, NEW.user_id, NEW.status_id, call_user_count_hour_of(NEW.created_at), 0, NEW.id, NEW.id);
          RETURN NULL;
        END IF;
        IF OLD.user_id IS NOT NULL THEN
          INSERT INTO call_user_count_delta (order_id, user_id, status_id, hour, n, min_id, max_id) VALUES (OLD.order_id, OLD.user_id, OLD.status_id, call_user_count_hour_of(OLD.created_at), -1, NULL, NULL);
        END IF;
        IF NEW.user_id IS NOT NULL THEN
          INSERT INTO call_user_count_delta (order_id, user_id, status_id, hour, n, min_id, max_id) VALUES (NEW.order_id, NEW.user_id, NEW.status_id, call_user_count_hour_of(NEW.created_at), 1, NEW.id, NEW.id);
        END IF;
        RETURN NULL;
      END $$`,
  `CREATE TRIGGER call_user_count_ins AFTER INSERT ON call FOR EACH ROW WHEN (NEW.user_id IS NOT NULL) EXECUTE FUNCTION call_user_count_on_insert()`,
  `CREATE TRIGGER call_user_count_del AFTER DELETE ON call FOR EACH ROW WHEN (OLD.user_id IS NOT NULL) EXECUTE FUNCTION call_user_count_on_delete()`,
  `CREATE TRIGGER call_user_count_upd AFTER UPDATE ON call FOR EACH ROW WHEN ((OLD.order_id, OLD.user_id, OLD.status_id, OLD.created_at) IS DISTINCT FROM (NEW.order_id, NEW.user_id, NEW.status_id, NEW.created_at)) EXECUTE FUNCTION call_user_count_on_update()`,
];

/** CounterSet.statementTriggers('no-nested-loop') of the same sets. */
const COUNTERS_DOWN = [
  `DROP TRIGGER lead_count_ins ON lead`,
  `DROP TRIGGER lead_count_del ON lead`,
  `DROP TRIGGER lead_count_upd ON lead`,
  `DROP FUNCTION lead_count_on_insert()`,
  `DROP FUNCTION lead_count_on_delete()`,
  `DROP FUNCTION lead_count_on_update()`,
  `
      CREATE FUNCTION lead_count_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO lead_count_delta (order_id, status_id, hour, n, min_id, max_id)
        SELECT order_id, status_id, lead_count_hour_of(created_at), count(*), min(id), max(id) FROM new_rows GROUP BY 1, 2, 3;
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION lead_count_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO lead_count_delta (order_id, status_id, hour, n)
        SELECT order_id, status_id, lead_count_hour_of(created_at), -count(*) FROM old_rows GROUP BY 1, 2, 3;
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION lead_count_on_update() RETURNS trigger LANGUAGE plpgsql SET enable_nestloop = off AS $$
      BEGIN
        INSERT INTO lead_count_delta (order_id, status_id, hour, n, min_id, max_id)
        SELECT order_id, status_id, hour, sum(n)::int, min(id), max(id) FROM (
          SELECT o.order_id, o.status_id, lead_count_hour_of(o.created_at) AS hour, -1 AS n, NULL::int AS id
            FROM old_rows o JOIN new_rows w ON w.id = o.id
           WHERE (o.order_id, o.status_id, o.created_at) IS DISTINCT FROM (w.order_id, w.status_id, w.created_at)
          UNION ALL
          SELECT w.order_id, w.status_id, lead_count_hour_of(w.created_at), 1, w.id
            FROM old_rows o JOIN new_rows w ON w.id = o.id
           WHERE (o.order_id, o.status_id, o.created_at) IS DISTINCT FROM (w.order_id, w.status_id, w.created_at)
        ) d GROUP BY 1, 2, 3;
        RETURN NULL;
      END $$`,
  `CREATE TRIGGER lead_count_ins AFTER INSERT ON lead REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_count_on_insert()`,
  `CREATE TRIGGER lead_count_del AFTER DELETE ON lead REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_count_on_delete()`,
  `CREATE TRIGGER lead_count_upd AFTER UPDATE ON lead REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_count_on_update()`,
  `DROP TRIGGER lead_planning_count_ins ON lead`,
  `DROP TRIGGER lead_planning_count_del ON lead`,
  `DROP TRIGGER lead_planning_count_upd ON lead`,
  `DROP FUNCTION lead_planning_count_on_insert()`,
  `DROP FUNCTION lead_planning_count_on_delete()`,
  `DROP FUNCTION lead_planning_count_on_update()`,
  `
      CREATE FUNCTION lead_planning_count_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO lead_planning_count_delta (order_id, hour, n, min_id, max_id)
        SELECT order_id, lead_planning_count_hour_of(planning_call_at), count(*), min(id), max(id) FROM new_rows WHERE planning_call_at IS NOT NULL GROUP BY 1, 2;
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION lead_planning_count_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO lead_planning_count_delta (order_id, hour, n)
        SELECT order_id, lead_planning_count_hour_of(planning_call_at), -count(*) FROM old_rows WHERE planning_call_at IS NOT NULL GROUP BY 1, 2;
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION lead_planning_count_on_update() RETURNS trigger LANGUAGE plpgsql SET enable_nestloop = off AS $$
      BEGIN
        INSERT INTO lead_planning_count_delta (order_id, hour, n, min_id, max_id)
        SELECT order_id, hour, sum(n)::int, min(id), max(id) FROM (
          SELECT o.order_id, lead_planning_count_hour_of(o.planning_call_at) AS hour, -1 AS n, NULL::int AS id
            FROM old_rows o JOIN new_rows w ON w.id = o.id
           WHERE (o.order_id, o.planning_call_at) IS DISTINCT FROM (w.order_id, w.planning_call_at) AND o.planning_call_at IS NOT NULL
          UNION ALL
          SELECT w.order_id, lead_planning_count_hour_of(w.planning_call_at), 1, w.id
            FROM old_rows o JOIN new_rows w ON w.id = o.id
           WHERE (o.order_id, o.planning_call_at) IS DISTINCT FROM (w.order_id, w.planning_call_at) AND w.planning_call_at IS NOT NULL
        ) d GROUP BY 1, 2;
        RETURN NULL;
      END $$`,
  `CREATE TRIGGER lead_planning_count_ins AFTER INSERT ON lead REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_planning_count_on_insert()`,
  `CREATE TRIGGER lead_planning_count_del AFTER DELETE ON lead REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_planning_count_on_delete()`,
  `CREATE TRIGGER lead_planning_count_upd AFTER UPDATE ON lead REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_planning_count_on_update()`,
  `DROP TRIGGER call_count_ins ON call`,
  `DROP TRIGGER call_count_del ON call`,
  `DROP TRIGGER call_count_upd ON call`,
  `DROP FUNCTION call_count_on_insert()`,
  `DROP FUNCTION call_count_on_delete()`,
  `DROP FUNCTION call_count_on_update()`,
  `
      CREATE FUNCTION call_count_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO call_count_delta (order_id, status_id, hour, n, min_id, max_id)
        SELECT order_id, status_id, call_count_hour_of(created_at), count(*), min(id), max(id) FROM new_rows GROUP BY 1, 2, 3;
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION call_count_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO call_count_delta (order_id, status_id, hour, n)
        SELECT order_id, status_id, call_count_hour_of(created_at), -count(*) FROM old_rows GROUP BY 1, 2, 3;
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION call_count_on_update() RETURNS trigger LANGUAGE plpgsql SET enable_nestloop = off AS $$
      BEGIN
        INSERT INTO call_count_delta (order_id, status_id, hour, n, min_id, max_id)
        SELECT order_id, status_id, hour, sum(n)::int, min(id), max(id) FROM (
          SELECT o.order_id, o.status_id, call_count_hour_of(o.created_at) AS hour, -1 AS n, NULL::int AS id
            FROM old_rows o JOIN new_rows w ON w.id = o.id
           WHERE (o.order_id, o.status_id, o.created_at) IS DISTINCT FROM (w.order_id, w.status_id, w.created_at)
          UNION ALL
          SELECT w.order_id, w.status_id, call_count_hour_of(w.created_at), 1, w.id
            FROM old_rows o JOIN new_rows w ON w.id = o.id
           WHERE (o.order_id, o.status_id, o.created_at) IS DISTINCT FROM (w.order_id, w.status_id, w.created_at)
        ) d GROUP BY 1, 2, 3;
        RETURN NULL;
      END $$`,
  `CREATE TRIGGER call_count_ins AFTER INSERT ON call REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION call_count_on_insert()`,
  `CREATE TRIGGER call_count_del AFTER DELETE ON call REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION call_count_on_delete()`,
  `CREATE TRIGGER call_count_upd AFTER UPDATE ON call REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION call_count_on_update()`,
  `DROP TRIGGER call_user_count_ins ON call`,
  `DROP TRIGGER call_user_count_del ON call`,
  `DROP TRIGGER call_user_count_upd ON call`,
  `DROP FUNCTION call_user_count_on_insert()`,
  `DROP FUNCTION call_user_count_on_delete()`,
  `DROP FUNCTION call_user_count_on_update()`,
  `
      CREATE FUNCTION call_user_count_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO call_user_count_delta (order_id, user_id, status_id, hour, n, min_id, max_id)
        SELECT order_id, user_id, status_id, call_user_count_hour_of(created_at), count(*), min(id), max(id) FROM new_rows WHERE user_id IS NOT NULL GROUP BY 1, 2, 3, 4;
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION call_user_count_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO call_user_count_delta (order_id, user_id, status_id, hour, n)
        SELECT order_id, user_id, status_id, call_user_count_hour_of(created_at), -count(*) FROM old_rows WHERE user_id IS NOT NULL GROUP BY 1, 2, 3, 4;
        RETURN NULL;
      END $$`,
  `
      CREATE FUNCTION call_user_count_on_update() RETURNS trigger LANGUAGE plpgsql SET enable_nestloop = off AS $$
      BEGIN
        INSERT INTO call_user_count_delta (order_id, user_id, status_id, hour, n, min_id, max_id)
        SELECT order_id, user_id, status_id, hour, sum(n)::int, min(id), max(id) FROM (
          SELECT o.order_id, o.user_id, o.status_id, call_user_count_hour_of(o.created_at) AS hour, -1 AS n, NULL::int AS id
            FROM old_rows o JOIN new_rows w ON w.id = o.id
           WHERE (o.order_id, o.user_id, o.status_id, o.created_at) IS DISTINCT FROM (w.order_id, w.user_id, w.status_id, w.created_at) AND o.user_id IS NOT NULL
          UNION ALL
          SELECT w.order_id, w.user_id, w.status_id, call_user_count_hour_of(w.created_at), 1, w.id
            FROM old_rows o JOIN new_rows w ON w.id = o.id
           WHERE (o.order_id, o.user_id, o.status_id, o.created_at) IS DISTINCT FROM (w.order_id, w.user_id, w.status_id, w.created_at) AND w.user_id IS NOT NULL
        ) d GROUP BY 1, 2, 3, 4;
        RETURN NULL;
      END $$`,
  `CREATE TRIGGER call_user_count_ins AFTER INSERT ON call REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION call_user_count_on_insert()`,
  `CREATE TRIGGER call_user_count_del AFTER DELETE ON call REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION call_user_count_on_delete()`,
  `CREATE TRIGGER call_user_count_upd AFTER UPDATE ON call REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION call_user_count_on_update()`,
];
