import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The counters' update triggers never join their transition tables in a nested loop (statement-triggers.ts, JoinPlanning): a plan
 * PL/pgSQL cached for a one-row update made a 10,000-row update take seconds, past the statement timeout.
 */
export class CounterUpdateTriggersNoNestedLoop1795700000000 implements MigrationInterface {
  name = 'CounterUpdateTriggersNoNestedLoop1795700000000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of UP) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of DOWN) await q.query(sql);
  }
}

/**
 * The update trigger functions of `lead_count` (and its rollups), `lead_planning_count`, `call_count` and `call_user_count` as
 * CounterSet.updateTriggerFunctions('no-nested-loop') rendered them. Frozen as text: a later change is a new migration.
 */
const UP = [
  `
      CREATE OR REPLACE FUNCTION lead_count_on_update() RETURNS trigger LANGUAGE plpgsql SET enable_nestloop = off AS $$
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
  `
      CREATE OR REPLACE FUNCTION lead_count_rollup_hour_on_upd() RETURNS trigger LANGUAGE plpgsql SET enable_nestloop = off AS $$
      BEGIN
        INSERT INTO lead_count_rollup_hour AS r (status_id, hour, n, min_id, max_id)
        SELECT w.status_id, w.hour, sum(w.n - o.n), min(w.min_id), max(w.max_id)
           FROM new_rows w JOIN old_rows o ON w.order_id = o.order_id AND w.status_id = o.status_id AND w.hour = o.hour GROUP BY w.status_id, w.hour
        ON CONFLICT (status_id, hour) DO UPDATE SET n = r.n + EXCLUDED.n,
          min_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE least(r.min_id, EXCLUDED.min_id) END,
          max_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE greatest(r.max_id, EXCLUDED.max_id) END;
        RETURN NULL;
      END $$`,
  `
      CREATE OR REPLACE FUNCTION lead_count_rollup_day_on_upd() RETURNS trigger LANGUAGE plpgsql SET enable_nestloop = off AS $$
      BEGIN
        INSERT INTO lead_count_rollup_day AS r (status_id, day, n, min_id, max_id)
        SELECT w.status_id, w.day, sum(w.n - o.n), min(w.min_id), max(w.max_id)
           FROM new_rows w JOIN old_rows o ON w.order_id = o.order_id AND w.status_id = o.status_id AND w.day = o.day GROUP BY w.status_id, w.day
        ON CONFLICT (status_id, day) DO UPDATE SET n = r.n + EXCLUDED.n,
          min_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE least(r.min_id, EXCLUDED.min_id) END,
          max_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE greatest(r.max_id, EXCLUDED.max_id) END;
        RETURN NULL;
      END $$`,
  `
      CREATE OR REPLACE FUNCTION lead_count_rollup_total_on_upd() RETURNS trigger LANGUAGE plpgsql SET enable_nestloop = off AS $$
      BEGIN
        INSERT INTO lead_count_rollup_total AS r (status_id, n, min_id, max_id)
        SELECT w.status_id, sum(w.n - o.n), min(w.min_id), max(w.max_id)
           FROM new_rows w JOIN old_rows o ON w.order_id = o.order_id AND w.status_id = o.status_id GROUP BY w.status_id
        ON CONFLICT (status_id) DO UPDATE SET n = r.n + EXCLUDED.n,
          min_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE least(r.min_id, EXCLUDED.min_id) END,
          max_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE greatest(r.max_id, EXCLUDED.max_id) END;
        RETURN NULL;
      END $$`,
  `
      CREATE OR REPLACE FUNCTION lead_planning_count_on_update() RETURNS trigger LANGUAGE plpgsql SET enable_nestloop = off AS $$
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
      CREATE OR REPLACE FUNCTION call_count_on_update() RETURNS trigger LANGUAGE plpgsql SET enable_nestloop = off AS $$
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
      CREATE OR REPLACE FUNCTION call_user_count_on_update() RETURNS trigger LANGUAGE plpgsql SET enable_nestloop = off AS $$
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
];

/** The same functions as updateTriggerFunctions('any') rendered them: joins planned freely. */
const DOWN = [
  `
      CREATE OR REPLACE FUNCTION lead_count_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
  `
      CREATE OR REPLACE FUNCTION lead_count_rollup_hour_on_upd() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO lead_count_rollup_hour AS r (status_id, hour, n, min_id, max_id)
        SELECT w.status_id, w.hour, sum(w.n - o.n), min(w.min_id), max(w.max_id)
           FROM new_rows w JOIN old_rows o ON w.order_id = o.order_id AND w.status_id = o.status_id AND w.hour = o.hour GROUP BY w.status_id, w.hour
        ON CONFLICT (status_id, hour) DO UPDATE SET n = r.n + EXCLUDED.n,
          min_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE least(r.min_id, EXCLUDED.min_id) END,
          max_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE greatest(r.max_id, EXCLUDED.max_id) END;
        RETURN NULL;
      END $$`,
  `
      CREATE OR REPLACE FUNCTION lead_count_rollup_day_on_upd() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO lead_count_rollup_day AS r (status_id, day, n, min_id, max_id)
        SELECT w.status_id, w.day, sum(w.n - o.n), min(w.min_id), max(w.max_id)
           FROM new_rows w JOIN old_rows o ON w.order_id = o.order_id AND w.status_id = o.status_id AND w.day = o.day GROUP BY w.status_id, w.day
        ON CONFLICT (status_id, day) DO UPDATE SET n = r.n + EXCLUDED.n,
          min_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE least(r.min_id, EXCLUDED.min_id) END,
          max_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE greatest(r.max_id, EXCLUDED.max_id) END;
        RETURN NULL;
      END $$`,
  `
      CREATE OR REPLACE FUNCTION lead_count_rollup_total_on_upd() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO lead_count_rollup_total AS r (status_id, n, min_id, max_id)
        SELECT w.status_id, sum(w.n - o.n), min(w.min_id), max(w.max_id)
           FROM new_rows w JOIN old_rows o ON w.order_id = o.order_id AND w.status_id = o.status_id GROUP BY w.status_id
        ON CONFLICT (status_id) DO UPDATE SET n = r.n + EXCLUDED.n,
          min_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE least(r.min_id, EXCLUDED.min_id) END,
          max_id = CASE WHEN r.n + EXCLUDED.n = 0 THEN NULL ELSE greatest(r.max_id, EXCLUDED.max_id) END;
        RETURN NULL;
      END $$`,
  `
      CREATE OR REPLACE FUNCTION lead_planning_count_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
      CREATE OR REPLACE FUNCTION call_count_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
      CREATE OR REPLACE FUNCTION call_user_count_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
];
