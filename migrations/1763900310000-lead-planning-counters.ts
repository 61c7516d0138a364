import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Counters of planned calls per order and hour (issue 14, order stats): see lead-planning-counters.ts.
 * Day counters carry their counts in the primary key (as 1763864300000 does for the other sets).
 */
export class LeadPlanningCounters1763900310000 implements MigrationInterface {
  name = 'LeadPlanningCounters1763900310000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of UP) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of DOWN) await q.query(sql);
  }
}

/**
 * The statements as CounterSet rendered them for `lead_planning_count` (order_id; leads with a `planning_call_at`): tables,
 * trigger functions, statement triggers on `lead`, the backfill, then the covering day key. Frozen as text: a later change of
 * the counter set or its generators is a new migration.
 */
const UP = [
  `
      CREATE TABLE lead_planning_count_delta (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        order_id int NOT NULL,
        hour timestamptz NOT NULL,
        n int NOT NULL,
        min_id int,
        max_id int
      )`,
  `
      CREATE TABLE lead_planning_count_hour (
        order_id int NOT NULL,
        hour timestamptz NOT NULL,
        n bigint NOT NULL,
        min_id int,
        max_id int,
        PRIMARY KEY (order_id, hour)
      )`,
  `CREATE INDEX lead_planning_count_hour_hour_idx ON lead_planning_count_hour (hour)`,
  `
      CREATE TABLE lead_planning_count_day (
        order_id int NOT NULL,
        day timestamptz NOT NULL,
        n bigint NOT NULL,
        min_id int,
        max_id int,
        PRIMARY KEY (order_id, day)
      )`,
  `CREATE INDEX lead_planning_count_day_day_idx ON lead_planning_count_day (day)`,
  `
      CREATE TABLE lead_planning_count_total (
        order_id int NOT NULL,
        n bigint NOT NULL,
        min_id int,
        max_id int,
        PRIMARY KEY (order_id)
      )`,
  `
      CREATE FUNCTION lead_planning_count_hour_of(ts timestamptz) RETURNS timestamptz
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT date_trunc('hour', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $$`,
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
  `
      CREATE FUNCTION lead_planning_count_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM lead_planning_count_delta;
        DELETE FROM lead_planning_count_hour;
        DELETE FROM lead_planning_count_day;
        DELETE FROM lead_planning_count_total;
        RETURN NULL;
      END $$`,
  `CREATE TRIGGER lead_planning_count_ins AFTER INSERT ON lead REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_planning_count_on_insert()`,
  `CREATE TRIGGER lead_planning_count_del AFTER DELETE ON lead REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_planning_count_on_delete()`,
  `CREATE TRIGGER lead_planning_count_upd AFTER UPDATE ON lead REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_planning_count_on_update()`,
  `CREATE TRIGGER lead_planning_count_trunc AFTER TRUNCATE ON lead FOR EACH STATEMENT EXECUTE FUNCTION lead_planning_count_on_truncate()`,
  `INSERT INTO lead_planning_count_delta (order_id, hour, n, min_id, max_id)
      SELECT order_id, lead_planning_count_hour_of(planning_call_at), count(*), min(id), max(id) FROM lead WHERE planning_call_at IS NOT NULL GROUP BY 1, 2`,
  `ALTER TABLE lead_planning_count_day DROP CONSTRAINT lead_planning_count_day_pkey`,
  `ALTER TABLE lead_planning_count_day ADD CONSTRAINT lead_planning_count_day_pkey PRIMARY KEY (order_id, day) INCLUDE (n, min_id, max_id)`,
];

/** Triggers first, then functions and tables. */
const DOWN = [
  `DROP TRIGGER lead_planning_count_ins ON lead`,
  `DROP TRIGGER lead_planning_count_del ON lead`,
  `DROP TRIGGER lead_planning_count_upd ON lead`,
  `DROP TRIGGER lead_planning_count_trunc ON lead`,
  `DROP FUNCTION lead_planning_count_on_truncate()`,
  `DROP FUNCTION lead_planning_count_on_update()`,
  `DROP FUNCTION lead_planning_count_on_delete()`,
  `DROP FUNCTION lead_planning_count_on_insert()`,
  `DROP FUNCTION lead_planning_count_hour_of(timestamptz)`,
  `DROP TABLE lead_planning_count_total`,
  `DROP TABLE lead_planning_count_day`,
  `DROP TABLE lead_planning_count_hour`,
  `DROP TABLE lead_planning_count_delta`,
];
