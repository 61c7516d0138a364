import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/assembly/data-source';
import { CALL_COUNTERS, CALL_USER_COUNTERS } from '../../src/modules/calls/persistence/call-counters';
import { LEAD_COUNTERS } from '../../src/modules/leads/persistence/lead-counters';
import { LEAD_PLANNING_COUNTERS } from '../../src/modules/leads/persistence/lead-planning-counters';

/**
 * Lead and call tables shaped like production, grown in stages so the same table is measured small and large (STYLE.md): arrivals in id
 * and time order into 30 Zipf-sized campaign orders, a paused-then-resumed order, an order at both ends of the id range and two tiny ones,
 * interleaved; a working campaign's status mix, CRM ids on every other lead, 0-2 calls a lead by 20 agents (10% without).
 */
export interface Population {
  zipf: number[];
  paused: number;
  ends: number;
  tiny: number[];
  agents: number[];
  sipId: number;
  stages: number[];
  /** Creation time of arrival i. */
  timeOf(i: number): Date;
}

const SPAN_SECONDS = 365 * 86_400;
const CHUNK = 100_000;
const STATUS_MIX = [1, 1, 1, 1, 2, 2, 3, 4, 4, 10, 11, 20, 21, 22, 30];
const CALL_STATUS_MIX = [1, 1, 1, 2, 2, 2, 3, 4, 5, 6];
const AGENTS = 20;

export async function createPopulation(pool: Pool, stages: number[]): Promise<Population> {
  const order = async (code: string) =>
    (await pool.query(`INSERT INTO call_order (code, service_title, title, status) VALUES ($1, 'Bench', $1, 'success') RETURNING id`, [code])).rows[0]
      .id as number;
  const zipf: number[] = [];
  for (let k = 1; k <= 30; k++) zipf.push(await order(`bench-z${String(k).padStart(2, '0')}`));
  const paused = await order('bench-paused');
  const ends = await order('bench-ends');
  const tiny = [await order('bench-tiny-1'), await order('bench-tiny-2')];
  const [{ id: sipId }] = (await pool.query(`INSERT INTO sip_endpoint (number, title) VALUES ('+74950000001', 'Bench line') RETURNING id`)).rows;
  const agents = (
    await pool.query(
      `INSERT INTO app_user (name, email, access_group) SELECT 'Agent ' || i, 'agent' || i || '@bench.example', 'call-center' FROM generate_series(1, ${AGENTS}) i RETURNING id`,
    )
  ).rows.map((r: { id: number }) => r.id);
  const final = stages[stages.length - 1];
  const end = Math.floor(Date.now() / 1000) * 1000;
  const step = (SPAN_SECONDS * 1000) / final;
  return { zipf, paused, ends, tiny, agents, sipId, stages, timeOf: (i) => new Date(end - (final - 1 - i) * step) };
}

/** Zipf slots: order k appears in proportion to 1/k. */
function zipfSlots(orders: number[]): number[] {
  const h = orders.reduce((s, _, k) => s + 1 / (k + 1), 0);
  return orders.flatMap((id, k) => new Array<number>(Math.max(1, Math.round(1000 / (k + 1) / h))).fill(id));
}

/** Grows the tables from `from` to `to` arrivals (set-based inserts in chunks). */
export async function grow(pool: Pool, pop: Population, from: number, to: number, withCalls: boolean): Promise<void> {
  const final = pop.stages[pop.stages.length - 1];
  const slots = zipfSlots(pop.zipf);
  const h = (seed: number) => `abs(hashint4extended(i, ${seed}))`;
  const endsWindows = [`i < 500`, ...pop.stages.map((s) => `(i >= ${s - 500} AND i < ${s})`)].join(' OR ');
  const pick = `CASE
      WHEN i < 4000 AND ${h(1)} % 100 = 0 THEN ${pop.paused}
      WHEN i >= ${final - 3000} AND ${h(1)} % 10 < 3 THEN ${pop.paused}
      WHEN (${endsWindows}) AND ${h(2)} % 5 = 0 THEN ${pop.ends}
      WHEN ${h(3)} % 5000 = 0 THEN ${pop.tiny[0]}
      WHEN ${h(3)} % 5000 = 1 THEN ${pop.tiny[1]}
      ELSE ($1::int[])[1 + ${h(4)} % ${slots.length}]
    END`;
  for (let a = from; a < to; a += CHUNK) {
    const b = Math.min(to, a + CHUNK);
    const [range] = (
      await pool.query(
        `WITH ins AS (
           INSERT INTO lead (order_id, phone, lead_type, status_id, utc_offset, source, planning_call_at, created_at, updated_at, external_id_crm_a)
           SELECT ${pick}, '+7916' || lpad(i::text, 7, '0'), 'straight',
                  ($2::int[])[1 + ${h(5)} % ${STATUS_MIX.length}], 3, 'organic', t + interval '1 day', t, t,
                  CASE WHEN i % 2 = 0 THEN 'CRM-A-' || i END
           FROM generate_series($3::int, $4::int - 1) AS i,
                LATERAL (SELECT $5::timestamptz + make_interval(secs => (i - $3::int) * $6::double precision / 1000) AS t) ts
           ORDER BY i
           RETURNING id
         ) SELECT min(id) AS lo, max(id) AS hi FROM ins`,
        [slots, STATUS_MIX, a, b, pop.timeOf(a), pop.timeOf(a + 1).getTime() - pop.timeOf(a).getTime()],
      )
    ).rows as { lo: number; hi: number }[];
    if (withCalls) await addCalls(pool, pop, range.lo, range.hi);
  }
}

async function addCalls(pool: Pool, pop: Population, lo: number, hi: number): Promise<void> {
  await pool.query(
    `INSERT INTO call (order_id, lead_id, user_id, sip_endpoint_id, status_id, direction, total_duration_seconds,
                       wait_time_duration_seconds, talk_time_duration_seconds, client_phone, platform_call_id, created_at, recorded_at)
     SELECT l.order_id, l.id,
            CASE WHEN abs(hashint4extended(l.id * 3 + j, 7)) % 10 = 0 THEN NULL
                 ELSE ($1::int[])[1 + abs(hashint4extended(l.id * 3 + j, 8)) % ${AGENTS}] END,
            $2, ($3::int[])[1 + abs(hashint4extended(l.id * 3 + j, 9)) % ${CALL_STATUS_MIX.length}], 'outgoing', 60, 10, 40,
            substr(l.phone, 2), 'bench-' || l.id || '-' || j, c.at, c.at
     FROM lead l
     CROSS JOIN LATERAL generate_series(1, (abs(hashint4extended(l.id, 6)) % 3)::int) AS j
     CROSS JOIN LATERAL (SELECT l.created_at + make_interval(mins => 40 * j + (abs(hashint4extended(l.id * 3 + j, 10)) % 80)::int) AS at) c
     WHERE l.id BETWEEN $4 AND $5
     ORDER BY c.at`,
    [pop.agents, pop.sipId, CALL_STATUS_MIX, lo, hi],
  );
}

/**
 * Brings grown data to the state a running service keeps it in: every counter delta folded (the app's own compactor may hold a set's
 * lock meanwhile), every event sequenced (as the sequencer does while rows are written), fresh statistics.
 */
export async function settle(url: string, pool: Pool): Promise<void> {
  const ds = await new DataSource(dataSourceOptions(url, { logging: ['error'] })).initialize();
  try {
    for (;;) {
      for (const set of [LEAD_COUNTERS, LEAD_PLANNING_COUNTERS, CALL_COUNTERS, CALL_USER_COUNTERS]) while ((await set.compact(ds, 50_000)) > 0);
      const [{ n }] = (
        await pool.query(
          `SELECT (SELECT count(*) FROM lead_count_delta) + (SELECT count(*) FROM lead_planning_count_delta) + (SELECT count(*) FROM call_count_delta) + (SELECT count(*) FROM call_user_count_delta) AS n`,
        )
      ).rows;
      if (Number(n) === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await ds.destroy();
  }
  while (Number((await pool.query(`SELECT event_sequence(50000) AS n`)).rows[0].n) > 0);
  await pool.query(`VACUUM ANALYZE`);
}
