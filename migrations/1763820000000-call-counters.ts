import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Counters for the exact `total` of `GET /v2/call/` at millions of calls (PRODUCT.md "Lists"):
 * calls per (order, status) and per (order, user, status), each per UTC hour and day and for all
 * time, kept by statement triggers and folded by CallCountersCompactor (src/database/counters).
 * Calls already stored are counted as deltas in the same transaction (creating the triggers
 * locks writers out until it commits). The boundary hours of a createdAt range are counted
 * exactly per order: (order_id, created_at) reads only the order's calls of those hours.
 */
export class CallCounters1763820000000 implements MigrationInterface {
  name = 'CallCounters1763820000000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of UP) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of DOWN) await q.query(sql);
  }
}

/**
 * The statements as CounterSet rendered them for `call_count` (order_id, status_id) and then
 * `call_user_count` (order_id, user_id, status_id; calls without a user left out): tables, trigger
 * functions, statement triggers on `call`, the backfill. Frozen as text: a later change of the
 * counter sets or their generators is a new migration and leaves this one as it ran.
 */
const UP = [
  `CREATE INDEX call_order_created_idx ON call (order_id, created_at)`,
  `
      CREATE TABLE call_count_delta (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        order_id int NOT NULL,
        status_id int NOT NULL,
        hour timestamptz NOT NULL,
        n int NOT NULL,
        min_id int,
        max_id int
      )`,
  `
      CREATE TABLE call_count_hour (
        order_id int NOT NULL,
        status_id int NOT NULL,
        hour timestamptz NOT NULL,
        n bigint NOT NULL,
        min_id int,
        max_id int,
        PRIMARY KEY (order_id, status_id, hour)
      )`,
  `CREATE INDEX call_count_hour_hour_idx ON call_count_hour (hour)`,
  `
      CREATE TABLE call_count_day (
        order_id int NOT NULL,
        status_id int NOT NULL,
        day timestamptz NOT NULL,
        n bigint NOT NULL,
        min_id int,
        max_id int,
        PRIMARY KEY (order_id, status_id, day)
      )`,
  `CREATE INDEX call_count_day_day_idx ON call_count_day (day)`,
  `
      CREATE TABLE call_count_total (
        order_id int NOT NULL,
        status_id int NOT NULL,
        n bigint NOT NULL,
        min_id int,
        max_id int,
        PRIMARY KEY (order_id, status_id)
      )`,
  `
      CREATE FUNCTION call_count_hour_of(ts timestamptz) RETURNS timestamptz
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT date_trunc('hour', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $$`,
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
  `
      CREATE FUNCTION call_count_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM call_count_delta;
        DELETE FROM call_count_hour;
        DELETE FROM call_count_day;
        DELETE FROM call_count_total;
        RETURN NULL;
      END $$`,
  `CREATE TRIGGER call_count_ins AFTER INSERT ON call REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION call_count_on_insert()`,
  `CREATE TRIGGER call_count_del AFTER DELETE ON call REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION call_count_on_delete()`,
  `CREATE TRIGGER call_count_upd AFTER UPDATE ON call REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION call_count_on_update()`,
  `CREATE TRIGGER call_count_trunc AFTER TRUNCATE ON call FOR EACH STATEMENT EXECUTE FUNCTION call_count_on_truncate()`,
  `INSERT INTO call_count_delta (order_id, status_id, hour, n, min_id, max_id)
      SELECT order_id, status_id, call_count_hour_of(created_at), count(*), min(id), max(id) FROM call  GROUP BY 1, 2, 3`,
  `
      CREATE TABLE call_user_count_delta (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        order_id int NOT NULL,
        user_id int NOT NULL,
        status_id int NOT NULL,
        hour timestamptz NOT NULL,
        n int NOT NULL,
        min_id int,
        max_id int
      )`,
  `
      CREATE TABLE call_user_count_hour (
        order_id int NOT NULL,
        user_id int NOT NULL,
        status_id int NOT NULL,
        hour timestamptz NOT NULL,
        n bigint NOT NULL,
        min_id int,
        max_id int,
        PRIMARY KEY (order_id, user_id, status_id, hour)
      )`,
  `CREATE INDEX call_user_count_hour_hour_idx ON call_user_count_hour (hour)`,
  `
      CREATE TABLE call_user_count_day (
        order_id int NOT NULL,
        user_id int NOT NULL,
        status_id int NOT NULL,
        day timestamptz NOT NULL,
        n bigint NOT NULL,
        min_id int,
        max_id int,
        PRIMARY KEY (order_id, user_id, status_id, day)
      )`,
  `CREATE INDEX call_user_count_day_day_idx ON call_user_count_day (day)`,
  `
      CREATE TABLE call_user_count_total (
        order_id int NOT NULL,
        user_id int NOT NULL,
        status_id int NOT NULL,
        n bigint NOT NULL,
        min_id int,
        max_id int,
        PRIMARY KEY (order_id, user_id, status_id)
      )`,
  `
      CREATE FUNCTION call_user_count_hour_of(ts timestamptz) RETURNS timestamptz
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT date_trunc('hour', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $$`,
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
  `
      CREATE FUNCTION call_user_count_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM call_user_count_delta;
        DELETE FROM call_user_count_hour;
        DELETE FROM call_user_count_day;
        DELETE FROM call_user_count_total;
        RETURN NULL;
      END $$`,
  `CREATE TRIGGER call_user_count_ins AFTER INSERT ON call REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION call_user_count_on_insert()`,
  `CREATE TRIGGER call_user_count_del AFTER DELETE ON call REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION call_user_count_on_delete()`,
  `CREATE TRIGGER call_user_count_upd AFTER UPDATE ON call REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION call_user_count_on_update()`,
  `CREATE TRIGGER call_user_count_trunc AFTER TRUNCATE ON call FOR EACH STATEMENT EXECUTE FUNCTION call_user_count_on_truncate()`,
  `INSERT INTO call_user_count_delta (order_id, user_id, status_id, hour, n, min_id, max_id)
      SELECT order_id, user_id, status_id, call_user_count_hour_of(created_at), count(*), min(id), max(id) FROM call WHERE user_id IS NOT NULL GROUP BY 1, 2, 3, 4`,
];

/** Triggers first, then functions and tables, `call_user_count` before `call_count`. */
const DOWN = [
  `DROP TRIGGER call_user_count_ins ON call`,
  `DROP TRIGGER call_user_count_del ON call`,
  `DROP TRIGGER call_user_count_upd ON call`,
  `DROP TRIGGER call_user_count_trunc ON call`,
  `DROP FUNCTION call_user_count_on_truncate()`,
  `DROP FUNCTION call_user_count_on_update()`,
  `DROP FUNCTION call_user_count_on_delete()`,
  `DROP FUNCTION call_user_count_on_insert()`,
  `DROP FUNCTION call_user_count_hour_of(timestamptz)`,
  `DROP TABLE call_user_count_total`,
  `DROP TABLE call_user_count_day`,
  `DROP TABLE call_user_count_hour`,
  `DROP TABLE call_user_count_delta`,
  `DROP TRIGGER call_count_ins ON call`,
  `DROP TRIGGER call_count_del ON call`,
  `DROP TRIGGER call_count_upd ON call`,
  `DROP TRIGGER call_count_trunc ON call`,
  `DROP FUNCTION call_count_on_truncate()`,
  `DROP FUNCTION call_count_on_update()`,
  `DROP FUNCTION call_count_on_delete()`,
  `DROP FUNCTION call_count_on_insert()`,
  `DROP FUNCTION call_count_hour_of(timestamptz)`,
  `DROP TABLE call_count_total`,
  `DROP TABLE call_count_day`,
  `DROP TABLE call_count_hour`,
  `DROP TABLE call_count_delta`,
  `DROP INDEX call_order_created_idx`,
];
