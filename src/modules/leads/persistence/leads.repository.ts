import type { Consent } from '../domain/consent';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { IdBounds, pageIdsQuery } from '../../../database/counters/counted-page';
import { CountStats } from '../../../database/counters/counter-set';
import { SqlParams } from '../../../database/sql-params';
import type { HoldReason } from '../../dialing/domain/dialing-decision';
import type { Lead, LeadFilter, UpdateLeadInput } from '../domain/lead';
import type { NewLead } from '../domain/new-lead';
import { LEAD_COUNTERS, leadCounterFilter } from './lead-counters';
import type { Queryable } from '../../../database/read-database';
import { type PreparedStatement, queryPrepared } from '../../../database/prepared-query';
import type { Assert, SameKeys } from '../../../database/entity-columns';
import { LEAD_COLUMNS, LEAD_READ_COLUMNS } from './lead-columns';
import type { LeadEntity } from './lead.entity';
import type { DialStop } from '../../dialing/domain/redial-rule';
import { type ClientAccess, UNRESTRICTED } from '../../../common/auth-context';

/** Lead columns as domain fields (LEAD_READ_COLUMNS); `l` is the lead, `o` its order. */
export const LEAD_SELECT = [
  LEAD_READ_COLUMNS.only(['id', 'orderId']).select('l'),
  `o.code AS "orderCode"`,
  LEAD_READ_COLUMNS.except(['id', 'orderId']).select('l'),
].join(', ');

/** `lead_create` (migration 1795740000000): the lock key, window and job id, then the lead as one jsonb row. */
const LEAD_CREATE: PreparedStatement = { name: 'lead_create', text: `SELECT lead_create($1, $2, $3, $4::jsonb) AS id` };

/** The row lead_create inserts: every lead column but those it sets itself. */
const LEAD_CREATE_ROW = LEAD_COLUMNS.except(['id', 'isSecondary', 'previousLeadId', 'jobId', 'createdAt', 'updatedAt']);

function leadCreateValues(lead: NewLead, link: { since: Date | null; jobId: string | null }, createdByJob = false): unknown[] {
  return [phoneLockKey(lead.orderId, lead.phone), link.since, link.jobId, JSON.stringify(LEAD_CREATE_ROW.populateRow({ ...lead, createdByJob }))];
}

/** insertLinkedForJob's statement: the job row locked while queued, lead_create, the job marked done ($3 is the job id). */
const LEAD_CREATE_FOR_JOB: PreparedStatement = {
  name: 'lead_create_for_job',
  text: `WITH job AS (SELECT id FROM lead_async_job WHERE id = $3 AND state = 'queued' FOR UPDATE),
      created AS (SELECT lead_create($1, $2, $3, $4::jsonb) AS id FROM job),
      done AS (
        UPDATE lead_async_job j SET state = 'done', lead_id = created.id, errors = '[]', finished_at = now()
        FROM created WHERE j.id = $3 AND created.id IS NOT NULL RETURNING j.id
      )
      SELECT EXISTS (SELECT 1 FROM job) AS queued, (SELECT id FROM created) AS "leadId", EXISTS (SELECT 1 FROM done) AS done`,
};

/**
 * LEAD_SELECT as the arguments of json_build_object: `'orderId', l.order_id, ...` (an item
 * without an alias is keyed by its column name). Items are split at commas, so an expression
 * with a comma of its own (`coalesce(a, b)`) is refused when the module loads, not mangled.
 */
export function leadJsonPairs(select: string): string {
  return select
    .split(',')
    .map((item) => {
      if (item.split('(').length !== item.split(')').length) throw new Error(`leadJsonPairs: a select item with a comma inside: ${item.trim()}`);
      const [, expr, alias] = /^\s*(.+?)(?:\s+AS\s+"?([A-Za-z_]+)"?)?\s*$/.exec(item)!;
      return `'${alias ?? expr.slice(expr.lastIndexOf('.') + 1)}', ${expr}`;
    })
    .join(', ');
}

/**
 * The detail read, prepared once per connection (planning is most of its PostgreSQL time), the lead as one JSON column: pg's
 * per-row result object for 33 columns costs more CPU than json_build_object plus one JSON.parse. $2 is a client key's client
 * (null: any): another client's lead reads as no lead, in the same statement.
 */
const LEAD_DETAIL: PreparedStatement = {
  name: 'lead_detail',
  text:
    `SELECT json_build_object(${leadJsonPairs(LEAD_SELECT)}) AS lead FROM lead l JOIN call_order o ON o.id = l.order_id ` +
    `WHERE l.id = $1 AND ($2::int IS NULL OR o.client_id = $2)`,
};

/** Writable columns of an update, by domain field. */
export type LeadChanges = Omit<UpdateLeadInput, 'source' | 'socialAId' | 'customValues' | 'planningCallAt' | 'consent'> & {
  consent?: Consent | null;
  source?: string;
  socialAId?: string;
  /** The decision's wanted moment (an explicit call time, a redial after a call). */
  dialAfter?: Date | null;
  /** A recorded call's count. */
  attemptCount?: number;
  /** The dialing decision's result (LeadDialingService.decideFor), written with the change it follows. */
  planningCallAt?: Date | null;
  dialingHold?: HoldReason[] | null;
  dialingHoldSince?: Date | null;
  dailyCapUntil?: Date | null;
  dialStop?: DialStop | null;
  qualifiedAt?: Date | null;
  /** Replaces the stored map (as for orders). */
  customValues?: Record<string, unknown>;
};

// Every field of an update is a lead column.
type _ChangesAreColumns = Assert<SameKeys<keyof LeadChanges & keyof LeadEntity, keyof LeadChanges>>;

const FOR_UPDATE_FIELDS = ['orderId', 'phone', 'statusId', 'utcOffset', 'timeZone', 'qualifiedAt', 'previousLeadId', 'nextLeadId', 'consent'] as const;
/** The state an update decides on, read under a row lock, and its order's client (who may change it). */
export type LeadForUpdate = Pick<LeadEntity, (typeof FOR_UPDATE_FIELDS)[number]> & { orderClientId: number | null };
const FOR_UPDATE = LEAD_COLUMNS.only(FOR_UPDATE_FIELDS);

/** Lock keys: 64-bit hashes of a namespaced text, so they cannot meet other modules' locks. */
export const phoneLockKey = (orderId: number, phone: string) => `lead-phone:${orderId}:${phone}`;
const qualifiedLockKey = (orderId: number) => `lead-qualified:${orderId}`;
const phoneChangeLockKey = (leadId: number) => `lead-phone-change:${leadId}`;

@Injectable()
export class LeadsRepository {
  constructor(private readonly ds: DataSource) {}

  /** Serialises creates of one phone in one order until the transaction ends (duplicate linking). */
  async lockPhone(m: EntityManager, orderId: number, phone: string): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [phoneLockKey(orderId, phone)]);
  }

  /**
   * Serialises phone changes of one lead until the transaction ends: taken before any phone or row
   * lock, it keeps the lead's phone as read after it, so its phone locks are the right ones.
   */
  async lockPhoneChange(m: EntityManager, id: number): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [phoneChangeLockKey(id)]);
  }

  /** Serialises qualifications in one order until the transaction ends (daily limit). */
  async lockQualified(m: EntityManager, orderId: number): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [qualifiedLockKey(orderId)]);
  }

  /**
   * Creates the lead in one round trip (function `lead_create`): takes the (order, phone) lock, returns the lead a retried job already
   * made, else inserts it linked to the order's most recent lead of this phone since `since` (null: no linking). Most recent = highest
   * id, as ids follow the lock order and `created_at` does not. Measured against four separate statements: bench/lead-create.ts.
   */
  async insertLinked(db: Queryable, lead: NewLead, link: { since: Date | null; jobId: string | null }): Promise<number> {
    // Prepared once per connection when `db` is the DataSource (the sync create); in a transaction, on its connection.
    const rows = await queryPrepared<{ id: number | null }>(db, LEAD_CREATE, leadCreateValues(lead, link));
    // Null only if a job's insert conflicted and its lead is still not visible: not expected, never silent.
    if (rows[0].id === null) throw new Error(`lead of job ${link.jobId} neither inserted nor found`);
    return rows[0].id;
  }

  /**
   * An asynchronous job's lead in one statement, its own transaction: locks the job row while still `queued` (a job delivered twice
   * waits, then finds it done), creates and links as insertLinked does, marks the job done. Null when the job is no longer queued.
   * lead_create's statements take their own snapshots (a volatile function), so linking sees every create committed before it.
   */
  async insertLinkedForJob(db: DataSource | Queryable, lead: NewLead, link: { since: Date | null; jobId: string }): Promise<number | null> {
    const rows = await queryPrepared<{ queued: boolean; leadId: number | null; done: boolean }>(db, LEAD_CREATE_FOR_JOB, leadCreateValues(lead, link, true));
    const { queued, leadId, done } = rows[0];
    if (!queued) return null;
    if (leadId === null || !done) throw new Error(`lead of job ${link.jobId} neither inserted nor found`);
    return leadId;
  }

  /** The lead, or null when there is none or `access` does not reach its order. */
  async findById(id: number, access: ClientAccess = UNRESTRICTED): Promise<Lead | null> {
    const rows = await queryPrepared<{ lead: Record<string, unknown> }>(this.ds, LEAD_DETAIL, [id, access.clientId]);
    const row = rows[0]?.lead;
    return row ? LEAD_READ_COLUMNS.reviveTimestamps<Lead>(row) : null;
  }

  /** The leads of these ids (any order's), in one statement: those that exist. */
  async findManyById(ids: readonly number[]): Promise<Lead[]> {
    if (ids.length === 0) return [];
    const rows = await this.ds.query<{ lead: Record<string, unknown> }[]>(
      `SELECT json_build_object(${leadJsonPairs(LEAD_SELECT)}) AS lead FROM lead l JOIN call_order o ON o.id = l.order_id WHERE l.id = ANY($1::int[])`,
      [ids],
    );
    return rows.map((r) => LEAD_READ_COLUMNS.reviveTimestamps<Lead>(r.lead));
  }

  /** Order and phone, unlocked: to take the phone locks before the row lock (the order the create path uses). */
  async findPhone(m: EntityManager, id: number): Promise<{ orderId: number; phone: string } | null> {
    const rows: { orderId: number; phone: string }[] = await m.query(`SELECT ${LEAD_COLUMNS.only(['orderId', 'phone']).select()} FROM lead WHERE id = $1`, [
      id,
    ]);
    return rows[0] ?? null;
  }

  /**
   * Takes a lead out of its duplicate chain, in one statement: its neighbours are joined to each
   * other (the next one stays secondary only if it still has a previous lead) and the lead stands
   * alone. For a phone change: the lead is no longer a duplicate of that phone's leads.
   */
  async detachFromChain(m: EntityManager, id: number, previousLeadId: number | null, nextLeadId: number | null): Promise<void> {
    if (previousLeadId === null && nextLeadId === null) return;
    await m.query(
      `WITH prev AS (
         UPDATE lead SET next_lead_id = $3, updated_at = now() WHERE id = $2 RETURNING id
       ), nxt AS (
         UPDATE lead SET previous_lead_id = $2, is_secondary = ($2::int IS NOT NULL), updated_at = now() WHERE id = $3 RETURNING id
       )
       UPDATE lead SET previous_lead_id = NULL, next_lead_id = NULL, is_secondary = false WHERE id = $1`,
      [id, previousLeadId, nextLeadId],
    );
  }

  async lockForUpdate(m: EntityManager, id: number): Promise<LeadForUpdate | null> {
    const rows: LeadForUpdate[] = await m.query(
      `SELECT ${FOR_UPDATE.select('l')}, o.client_id AS "orderClientId" FROM lead l JOIN call_order o ON o.id = l.order_id WHERE l.id = $1 FOR UPDATE OF l`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Several leads' attempt counts in one statement (the demo's calls, recorded in bulk). */
  async setAttemptCounts(m: EntityManager, counts: ReadonlyMap<number, number>): Promise<void> {
    if (counts.size === 0) return;
    await m.query(`UPDATE lead l SET attempt_count = a.n FROM unnest($1::int[], $2::int[]) AS a(id, n) WHERE l.id = a.id`, [
      [...counts.keys()],
      [...counts.values()],
    ]);
  }

  async update(m: EntityManager, id: number, changes: LeadChanges): Promise<void> {
    const p = new SqlParams();
    const sets: string[] = [];
    for (const [field, value] of Object.entries(changes) as [keyof LeadChanges & keyof LeadEntity, unknown][]) {
      if (value === undefined) continue;
      const column = LEAD_COLUMNS.get(field);
      // A JSON column set to null is SQL NULL (none), not the JSON value null.
      sets.push(
        column.kind === 'json' && value !== null
          ? `${column.databaseName} = ${p.add(JSON.stringify(value))}::jsonb`
          : `${column.databaseName} = ${p.add(value)}`,
      );
    }
    if (sets.length === 0) return;
    await m.query(`UPDATE lead SET ${sets.join(', ')}, updated_at = now() WHERE id = ${p.add(id)}`, p.values);
  }

  /** countQualified of several orders, each over its own day, in one statement: order id → count (orders with none: 0). */
  async countQualifiedMany(m: EntityManager, days: readonly { orderId: number; from: Date; to: Date }[]): Promise<Map<number, number>> {
    if (!days.length) return new Map();
    const rows: { orderId: number; n: number }[] = await m.query(
      `SELECT d.order_id AS "orderId",
              (SELECT count(*)::int FROM lead l WHERE l.order_id = d.order_id AND l.qualified_at >= d.day_from AND l.qualified_at < d.day_to) AS n
         FROM unnest($1::int[], $2::timestamptz[], $3::timestamptz[]) AS d(order_id, day_from, day_to)`,
      [days.map((d) => d.orderId), days.map((d) => d.from), days.map((d) => d.to)],
    );
    return new Map(rows.map((r) => [r.orderId, r.n]));
  }

  async countQualified(m: EntityManager, orderId: number, from: Date, to: Date): Promise<number> {
    const rows: { n: number }[] = await m.query(`SELECT count(*)::int AS n FROM lead WHERE order_id = $1 AND qualified_at >= $2 AND qualified_at < $3`, [
      orderId,
      from,
      to,
    ]);
    return rows[0].n;
  }

  /**
   * One page ordered by id, with each lead's order code. Its ids come from (order_id, status_id, id), (order_id, id), (status_id, id)
   * or the primary key (pageIdsQuery), confined to `ids` (from `stats`): about a page of index entries however the matches are spread.
   */
  async listPage(db: Queryable, filter: LeadFilter, offset: number, limit: number, ids?: IdBounds): Promise<Lead[]> {
    const p = new SqlParams();
    const conditions: string[] = [];
    if (filter.createdFrom) conditions.push(`t.created_at >= ${p.add(filter.createdFrom)}`);
    if (filter.createdTo) conditions.push(`t.created_at <= ${p.add(filter.createdTo)}`);
    const keys = [
      { column: 'order_id', values: filter.orderIds ?? [] },
      { column: 'status_id', values: filter.statusIds ?? [] },
    ];
    const page = pageIdsQuery(p, { table: 'lead', keys, conditions, ids, offset, limit });
    return db.query(
      `SELECT ${LEAD_SELECT} FROM (${page}) page JOIN lead l ON l.id = page.id JOIN call_order o ON o.id = l.order_id ORDER BY l.id`,
      p.values,
    ) as Promise<Lead[]>;
  }

  /**
   * The exact number of leads matching the filter, and bounds of their ids, from the lead
   * counters (database/counters: whole days and hours from the counters, the boundary hours a
   * createdAt range cuts counted exactly), in one statement.
   */
  stats(db: Queryable, filter: LeadFilter): Promise<CountStats> {
    return LEAD_COUNTERS.stats(db, leadCounterFilter(filter));
  }

  /** The statement behind `stats` (also for EXPLAIN in the benchmark). */
  statsQuery(filter: LeadFilter): { sql: string; params: unknown[] } {
    return LEAD_COUNTERS.statsQuery(leadCounterFilter(filter));
  }

  /** Folds up to `batch` counter deltas (see CounterSet.compact); 0 when another instance is compacting. */
  compactCounters(batch: number): Promise<number> {
    return LEAD_COUNTERS.compact(this.ds, batch);
  }
}
