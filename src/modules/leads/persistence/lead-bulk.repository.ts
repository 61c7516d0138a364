import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlParams, whereOf } from '../../../database/sql-params';
import type { Queryable } from '../../../database/read-database';
import { findPage, type PagePlaceholders } from '../../../database/page';
import type { Page } from '../../../common/envelope';
import type { Lead } from '../domain/lead';
import { LOOKUP_KEYS, type LeadLookupFilter, type LookupKey } from '../domain/lead-lookup';
import type { NewLead } from '../domain/new-lead';
import { LEAD_COLUMNS } from './lead-columns';
import { LEAD_SELECT, phoneLockKey } from './leads.repository';

/** A validated batch item: its position in the request, the lead, and its job id (idempotency token) if any. */
export interface BatchRow {
  index: number;
  lead: NewLead;
  jobId: string | null;
}

/** The column of each lookup key (domain/lead-lookup.ts). */
const LOOKUP_COLUMNS = LEAD_COLUMNS.only(LOOKUP_KEYS).names();

/** lock_timeout and statement_timeout of a batch insert's transaction. */
const BATCH_TIMEOUT_SECONDS = 60;

const upsertLockKey = (orderId: number, key: LookupKey, value: string) => `lead-upsert:${orderId}:${key}:${value}`;

/**
 * The batch as jsonb rows keyed by lead column (LEAD_COLUMNS.row, as the single create), so
 * `jsonb_populate_record(NULL::lead, ...)` types every value; and the columns the rows give.
 */
function batchRows(rows: BatchRow[]): { json: string; columns: string[] } {
  const leads = rows.map((r) => LEAD_COLUMNS.row(r.lead));
  const columns = LEAD_COLUMNS.givenColumns(leads);
  return { json: JSON.stringify(rows.map((r, i) => ({ ...leads[i], ord: r.index, job_id: r.jobId }))), columns };
}

/**
 * The pool's per-statement limits (sized for one lead) scaled for this transaction only: a batch
 * may wait for another holding some of its phones until that one commits, and its insert is a
 * thousand creates' work.
 */
async function scaleTimeouts(m: EntityManager): Promise<void> {
  await m.query(`SELECT set_config('lock_timeout', $1, true), set_config('statement_timeout', $1, true)`, [`${BATCH_TIMEOUT_SECONDS}s`]);
}

/**
 * The (order, phone) locks of every distinct phone of the rows, the keys the single create
 * locks, in sorted order (two batches sharing phones cannot deadlock; a single create takes one).
 */
async function lockPhones(m: EntityManager, rows: BatchRow[]): Promise<void> {
  const keys = [...new Set(rows.map((r) => phoneLockKey(r.lead.orderId, r.lead.phone)))].sort();
  // Then the batch's orders FOR KEY SHARE in id order, as the lead trigger takes each row's (a do-not-call write locks them FOR UPDATE).
  await m.query(
    `SELECT o.id FROM (SELECT count(*) FROM (SELECT pg_advisory_xact_lock(hashtextextended(k, 0))
       FROM unnest($1::text[]) WITH ORDINALITY u(k, n) ORDER BY n) locked) c, call_order o
     WHERE o.id = ANY($2::int[]) ORDER BY o.id FOR KEY SHARE OF o`,
    [keys, [...new Set(rows.map((r) => r.lead.orderId))]],
  );
}

/**
 * Batch inserts and lookups of leads. The insert's columns are the lead's fields (LEAD_COLUMNS,
 * from the entity), as for the single create: a column added to the entity needs no change here.
 */
@Injectable()
export class LeadBulkRepository {
  /**
   * Inserts a batch in three statements whatever its size: timeouts, the (order, phone) locks of its phones in sorted order (no deadlock),
   * and one insert returning the leads of job ids that have one and linking the rest as sequential single creates would (`since` null: no
   * linking). `created_at + 0` keeps the window off the (order_id, created_at) index: only the phone's indexes answer. See bench/lead-batch.ts.
   */
  async insertBatch(m: EntityManager, rows: BatchRow[], since: Date | null): Promise<Map<number, number>> {
    if (rows.length === 0) return new Map();
    await scaleTimeouts(m);
    await lockPhones(m, rows);
    return this.insertLinked(m, rows, since, false);
  }

  /**
   * insertBatch for asynchronous jobs: each row's `lead_async_job` is locked first, in id order, while still `queued` (a job delivered
   * twice waits, then finds it settled), and the insert marks each job `done` with its lead. Job rows before phone locks, each set
   * sorted as the single job takes them: no deadlock. Returns lead ids by item index for the jobs this call settled.
   */
  async insertJobBatch(m: EntityManager, rows: BatchRow[], since: Date | null): Promise<Map<number, number>> {
    if (rows.length === 0) return new Map();
    await scaleTimeouts(m);
    const queued: { id: string }[] = await m.query(`SELECT id FROM lead_async_job WHERE id = ANY($1::uuid[]) AND state = 'queued' ORDER BY id FOR UPDATE`, [
      rows.map((r) => r.jobId),
    ]);
    const still = new Set(queued.map((q) => q.id));
    const todo = rows.filter((r) => r.jobId !== null && still.has(r.jobId));
    if (todo.length === 0) return new Map();
    await lockPhones(m, todo);
    return this.insertLinked(m, todo, since, true);
  }

  /**
   * The insert itself, one statement with a new snapshot (it sees every create that held the
   * phones' locks before): see insertBatch. With `settleJobs` (rows of async jobs), marks each lead made by a job
   * (`created_by_job`) and each row's job done.
   */
  private async insertLinked(m: EntityManager, rows: BatchRow[], since: Date | null, settleJobs: boolean): Promise<Map<number, number>> {
    const { json, columns } = batchRows(rows);
    const result: { ord: number; id: number; settled: boolean }[] = await m.query(
      `WITH src AS (
         SELECT (e.item->>'ord')::int AS ord, r.*
         FROM jsonb_array_elements($1::jsonb) e(item) CROSS JOIN LATERAL jsonb_populate_record(NULL::lead, e.item) r
       ), found AS (
         SELECT s.ord, l.id, s.job_id FROM src s JOIN lead l ON l.order_id = s.order_id AND l.job_id = s.job_id
       ), todo AS (
         SELECT s.*, nextval(pg_get_serial_sequence('lead', 'id'))::int AS new_id
         FROM (SELECT * FROM src WHERE ord NOT IN (SELECT ord FROM found) ORDER BY ord) s
       ), chained AS (
         SELECT t.*,
                CASE WHEN $2::timestamptz IS NULL THEN NULL ELSE lag(t.new_id) OVER w END AS batch_prev,
                CASE WHEN $2::timestamptz IS NULL THEN NULL ELSE lead(t.new_id) OVER w END AS batch_next,
                row_number() OVER w AS pos
         FROM todo t WINDOW w AS (PARTITION BY t.order_id, t.phone ORDER BY t.ord)
       ), heads AS (
         SELECT c.new_id, c.order_id, p.id AS prev_id
         FROM chained c CROSS JOIN LATERAL (
           SELECT l.id FROM lead l
           WHERE l.order_id = c.order_id AND l.phone = c.phone AND l.created_at + interval '0 s' >= $2::timestamptz
           ORDER BY l.id DESC LIMIT 1
         ) p
         WHERE c.pos = 1 AND $2::timestamptz IS NOT NULL
       ), ins AS (
         INSERT INTO lead (id, ${columns.join(', ')}, job_id, created_by_job, is_secondary, previous_lead_id, next_lead_id)
         SELECT c.new_id, ${columns.map((col) => `c.${col}`).join(', ')}, c.job_id, $3::boolean,
                coalesce(c.batch_prev, h.prev_id) IS NOT NULL, coalesce(c.batch_prev, h.prev_id), c.batch_next
         FROM chained c LEFT JOIN heads h ON h.new_id = c.new_id
         ORDER BY c.ord
         RETURNING id
       ), linked AS (
         UPDATE lead l SET next_lead_id = h.new_id, updated_at = now()
         FROM heads h WHERE l.order_id = h.order_id AND l.id = h.prev_id
         RETURNING l.id
       ), made AS (
         SELECT ord, id, job_id FROM found
         UNION ALL
         SELECT c.ord, c.new_id, c.job_id FROM chained c WHERE c.new_id IN (SELECT id FROM ins)
       ), done AS (
         UPDATE lead_async_job j SET state = 'done', lead_id = made.id, errors = '[]', finished_at = now()
         FROM made WHERE $3::boolean AND j.id = made.job_id AND j.state = 'queued'
         RETURNING j.id
       )
       SELECT made.ord, made.id, done.id IS NOT NULL AS settled FROM made LEFT JOIN done ON done.id = made.job_id`,
      [json, since, settleJobs],
    );
    // Every job locked while queued is settled here; anything else is a bug, never silent.
    if (settleJobs && result.some((r) => !r.settled)) throw new Error('a job of the batch was not marked done');
    return new Map(result.map((r) => [r.ord, r.id]));
  }

  /** Serialises upserts of one key value in one order until the transaction ends. */
  async lockUpsertKey(m: EntityManager, orderId: number, key: LookupKey, value: string): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [upsertLockKey(orderId, key, value)]);
  }

  /** The lead an earlier run of this request made (its idempotency token is the lead's job id). */
  async findByJobId(m: EntityManager, orderId: number, jobId: string): Promise<number | null> {
    const rows: { id: number }[] = await m.query(`SELECT id FROM lead WHERE order_id = $1 AND job_id = $2`, [orderId, jobId]);
    return rows[0]?.id ?? null;
  }

  /** The most recent lead (highest id) of the order whose `key` equals `value`: through the (key, id) indexes. */
  async findLatestByKey(m: EntityManager, orderId: number, key: LookupKey, value: string): Promise<number | null> {
    const rows: { id: number }[] = await m.query(`SELECT id FROM lead WHERE ${LOOKUP_COLUMNS[key]} = $1 AND order_id = $2 ORDER BY id DESC LIMIT 1`, [
      value,
      orderId,
    ]);
    return rows[0]?.id ?? null;
  }

  /**
   * A lookup page and its exact total. Every lookup key has an index (key, id), so both statements read only the leads carrying
   * the value, in id order, whatever the table's size. The counters cannot help: they do not count by phone or external id.
   */
  lookupPage(db: Queryable, filter: LeadLookupFilter, offset: number, limit: number): Promise<Page<Lead>> {
    const p = new SqlParams();
    const conds: string[] = [];
    for (const key of LOOKUP_KEYS) {
      const value = filter.keys[key];
      if (value !== undefined) conds.push(`t.${LOOKUP_COLUMNS[key]} = ${p.add(value)}`);
    }
    if (filter.orderIds?.length) conds.push(`t.order_id = ANY(${p.add(filter.orderIds)}::int[])`);
    if (filter.statusIds?.length) conds.push(`t.status_id = ANY(${p.add(filter.statusIds)}::int[])`);
    if (filter.createdFrom) conds.push(`t.created_at >= ${p.add(filter.createdFrom)}`);
    if (filter.createdTo) conds.push(`t.created_at <= ${p.add(filter.createdTo)}`);
    const where = whereOf(conds);
    return findPage<Lead>(
      {
        db,
        count: `SELECT count(*)::int AS n FROM lead t ${where}`,
        select: (page: PagePlaceholders) => `SELECT ${LEAD_SELECT}
          FROM (SELECT t.id FROM lead t ${where} ORDER BY t.id LIMIT ${page.limit} OFFSET ${page.offset}) page
          JOIN lead l ON l.id = page.id JOIN call_order o ON o.id = l.order_id ORDER BY l.id`,
        params: p.values,
      },
      offset,
      limit,
    );
  }
}
