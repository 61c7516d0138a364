import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Leads, the lead and call status catalogues, asynchronous lead-creation jobs, and the counters
 * that keep `total` of `GET /v2/lead/` exact and cheap at millions of rows.
 *
 * Towards Citus: every lead row carries `order_id` (the future distribution column); the keys other
 * tables reference (`(order_id, id)`) and the job-id uniqueness include it. Not yet distributable
 * as it stands: the primary key is `(id)` (Citus wants the distribution column in it) and the
 * counter triggers read transition tables; both would change in the move (README, Left out).
 */
export class Leads1763790000000 implements MigrationInterface {
  name = 'Leads1763790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE lead_status (
        id int PRIMARY KEY CHECK (id > 0),
        title varchar(255) NOT NULL,
        category varchar(16) NOT NULL CHECK (category IN ('in-progress', 'qualified', 'rejected', 'closed')),
        is_default boolean NOT NULL DEFAULT false,
        -- A default status must be one a lead may be created with.
        CHECK (NOT is_default OR category = 'in-progress')
      )`);
    await q.query(`CREATE UNIQUE INDEX lead_status_one_default_idx ON lead_status (is_default) WHERE is_default`);
    await q.query(`
      INSERT INTO lead_status (id, title, category, is_default) VALUES
        (1, 'New', 'in-progress', true),
        (2, 'In progress', 'in-progress', false),
        (3, 'Callback requested', 'in-progress', false),
        (4, 'No answer', 'in-progress', false),
        (10, 'Qualified', 'qualified', false),
        (11, 'Sale', 'qualified', false),
        (20, 'Rejected', 'rejected', false),
        (21, 'Wrong number', 'rejected', false),
        (22, 'Duplicate', 'rejected', false),
        (30, 'Closed', 'closed', false)`);

    await q.query(`
      CREATE TABLE call_status (
        id int PRIMARY KEY CHECK (id > 0),
        title varchar(255) NOT NULL,
        category varchar(16) NOT NULL CHECK (category IN ('answered', 'not-answered', 'failed')),
        is_callback boolean NOT NULL DEFAULT false
      )`);
    await q.query(`
      INSERT INTO call_status (id, title, category, is_callback) VALUES
        (1, 'Answered', 'answered', false),
        (2, 'No answer', 'not-answered', false),
        (3, 'Busy', 'not-answered', false),
        (4, 'Failed', 'failed', false),
        (5, 'Voicemail', 'not-answered', false),
        (6, 'Callback requested', 'answered', true)`);

    await q.query(`
      CREATE TABLE lead (
        id serial PRIMARY KEY,
        order_id int NOT NULL REFERENCES call_order (id),
        name varchar(255),
        phone varchar(16) NOT NULL CHECK (phone ~ '^\\+[1-9][0-9]{6,14}$'),
        source_comment text,
        ip varchar(45),
        external_id_crm_a varchar(255),
        external_id_crm_b varchar(255),
        external_id_crm_c varchar(255),
        external_id_crm_d varchar(255),
        status_id int NOT NULL REFERENCES lead_status (id),
        lead_type varchar(16) NOT NULL CHECK (lead_type IN ('straight', 'selection')),
        create_method varchar(32) NOT NULL DEFAULT 'API',
        source varchar(32) NOT NULL DEFAULT 'organic',
        is_secondary boolean NOT NULL DEFAULT false,
        previous_lead_id int,
        next_lead_id int,
        planning_call_at timestamptz,
        priority int NOT NULL DEFAULT 0,
        utc_offset smallint NOT NULL CHECK (utc_offset BETWEEN -12 AND 14),
        social_a_id bigint CHECK (social_a_id > 0),
        social_b_login varchar(255),
        messenger_user_name varchar(255),
        messenger_phone varchar(32),
        messenger_id bigint CHECK (messenger_id > 0),
        ad_campaign_id varchar(64),
        custom_values jsonb NOT NULL DEFAULT '{}',
        attempt_count int NOT NULL DEFAULT 0,
        job_id uuid,
        qualified_at timestamptz,
        selection_type varchar(64),
        city varchar(255),
        additional_params jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT lead_order_id_key UNIQUE (order_id, id),
        CONSTRAINT lead_previous_fk FOREIGN KEY (order_id, previous_lead_id) REFERENCES lead (order_id, id),
        CONSTRAINT lead_next_fk FOREIGN KEY (order_id, next_lead_id) REFERENCES lead (order_id, id),
        CHECK (previous_lead_id IS DISTINCT FROM id AND next_lead_id IS DISTINCT FROM id)
      )`);
    // A retried creation job finds its lead instead of making a second one.
    await q.query(`CREATE UNIQUE INDEX lead_order_job_idx ON lead (order_id, job_id) WHERE job_id IS NOT NULL`);
    // Duplicate lookup: the most recent lead of the order with this phone.
    await q.query(`CREATE INDEX lead_order_phone_created_idx ON lead (order_id, phone, created_at DESC)`);
    // List filters (each combination ordered by id) and the exact count of partial hours.
    await q.query(`CREATE INDEX lead_status_id_idx ON lead (status_id, id)`);
    await q.query(`CREATE INDEX lead_created_id_idx ON lead (created_at, id)`);
    await q.query(`CREATE INDEX lead_order_created_idx ON lead (order_id, created_at)`);
    // Qualified leads of an order per day (qualifiedLeadsPerDayLimit).
    await q.query(`CREATE INDEX lead_order_qualified_idx ON lead (order_id, qualified_at) WHERE qualified_at IS NOT NULL`);

    /*
     * Counters for the exact `total` of lead lists. Writers never update a shared row: a statement
     * trigger appends one delta row per (order, status, UTC hour) the statement touched, so bursts
     * of creates take no common lock. A compactor (LeadCountersService) periodically folds the
     * deltas into `lead_count_hour` and `lead_count_day` (per UTC hour and day, for createdAt
     * ranges) and `lead_count_total` (all time, for lists without a createdAt filter) in one
     * transaction, so every snapshot sees each lead counted exactly once.
     *
     * Each counter row also keeps bounds of the lead ids it has counted (`min_id`..`max_id`,
     * widened as leads arrive, reset when the bucket empties): every lead of the bucket lies
     * inside them, so a list page can be confined to
     * that id range and read ~one page of the id index even when the createdAt range or a rare
     * status sits at the far end of a huge order.
     */
    await q.query(`
      CREATE TABLE lead_count_delta (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        order_id int NOT NULL,
        status_id int NOT NULL,
        hour timestamptz NOT NULL,
        n int NOT NULL,
        min_id int,
        max_id int
      )`);
    await q.query(`
      CREATE TABLE lead_count_hour (
        order_id int NOT NULL,
        status_id int NOT NULL,
        hour timestamptz NOT NULL,
        n bigint NOT NULL,
        min_id int,
        max_id int,
        PRIMARY KEY (order_id, status_id, hour)
      )`);
    await q.query(`CREATE INDEX lead_count_hour_hour_idx ON lead_count_hour (hour)`);
    // Day rollups keep a long createdAt range cheap: its work grows with days, not hours or leads.
    await q.query(`
      CREATE TABLE lead_count_day (
        order_id int NOT NULL,
        status_id int NOT NULL,
        day timestamptz NOT NULL,
        n bigint NOT NULL,
        min_id int,
        max_id int,
        PRIMARY KEY (order_id, status_id, day)
      )`);
    await q.query(`CREATE INDEX lead_count_day_day_idx ON lead_count_day (day)`);
    await q.query(`
      CREATE TABLE lead_count_total (
        order_id int NOT NULL,
        status_id int NOT NULL,
        n bigint NOT NULL,
        min_id int,
        max_id int,
        PRIMARY KEY (order_id, status_id)
      )`);
    // The hour of a lead in UTC, whatever the session's TimeZone (date_trunc on timestamptz uses it).
    await q.query(`
      CREATE FUNCTION lead_count_hour_of(ts timestamptz) RETURNS timestamptz
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT date_trunc('hour', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $$`);
    await q.query(`
      CREATE FUNCTION lead_count_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO lead_count_delta (order_id, status_id, hour, n, min_id, max_id)
        SELECT order_id, status_id, lead_count_hour_of(created_at), count(*), min(id), max(id) FROM new_rows GROUP BY 1, 2, 3;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION lead_count_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO lead_count_delta (order_id, status_id, hour, n)
        SELECT order_id, status_id, lead_count_hour_of(created_at), -count(*) FROM old_rows GROUP BY 1, 2, 3;
        RETURN NULL;
      END $$`);
    // Only rows whose counted key changed produce deltas; other updates (planning, names) add nothing.
    // No HAVING sum(n) <> 0: two leads swapping statuses net to 0 but still widen the id bounds.
    await q.query(`
      CREATE FUNCTION lead_count_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
      END $$`);
    // TRUNCATE fires no row or statement DELETE trigger: it empties the counters instead.
    await q.query(`
      CREATE FUNCTION lead_count_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM lead_count_delta;
        DELETE FROM lead_count_hour;
        DELETE FROM lead_count_day;
        DELETE FROM lead_count_total;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER lead_count_ins AFTER INSERT ON lead REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_count_on_insert()`,
    );
    await q.query(
      `CREATE TRIGGER lead_count_del AFTER DELETE ON lead REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_count_on_delete()`,
    );
    await q.query(
      `CREATE TRIGGER lead_count_upd AFTER UPDATE ON lead REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_count_on_update()`,
    );
    await q.query(`CREATE TRIGGER lead_count_trunc AFTER TRUNCATE ON lead FOR EACH STATEMENT EXECUTE FUNCTION lead_count_on_truncate()`);

    // Asynchronous creations: accepted = this row and its pg-boss job committed together.
    await q.query(`
      CREATE TABLE lead_async_job (
        id uuid PRIMARY KEY,
        state varchar(8) NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'done', 'failed')),
        order_id int,
        lead_id int,
        errors jsonb NOT NULL DEFAULT '[]',
        payload jsonb NOT NULL,
        api_key_id int,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX lead_async_job_created_idx ON lead_async_job (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE lead_async_job`);
    await q.query(`DROP TABLE lead`);
    await q.query(`DROP FUNCTION lead_count_on_truncate()`);
    await q.query(`DROP FUNCTION lead_count_on_update()`);
    await q.query(`DROP FUNCTION lead_count_on_delete()`);
    await q.query(`DROP FUNCTION lead_count_on_insert()`);
    await q.query(`DROP FUNCTION lead_count_hour_of(timestamptz)`);
    await q.query(`DROP TABLE lead_count_total`);
    await q.query(`DROP TABLE lead_count_day`);
    await q.query(`DROP TABLE lead_count_hour`);
    await q.query(`DROP TABLE lead_count_delta`);
    await q.query(`DROP TABLE call_status`);
    await q.query(`DROP TABLE lead_status`);
  }
}
