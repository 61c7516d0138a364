import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { IdBounds, pageIdsQuery } from '../../../database/counters/counted-page';
import { CountStats } from '../../../database/counters/counter-set';
import { SqlParams } from '../../../database/sql-params';
import type { Lead, LeadFilter, LeadForCall, UpdateLeadInput } from '../domain/lead';
import type { NewLead } from '../domain/new-lead';
import { LEAD_COUNTERS, leadCounterFilter } from './lead-counters';
import type { Queryable } from '../../../database/read-database';
import { type PreparedStatement, queryPrepared } from '../../../database/prepared-query';

/** Lead columns as domain fields; `l` is the lead, `o` its order. */
export const LEAD_SELECT = `
  l.id, l.order_id AS "orderId", o.code AS "orderCode", l.name, l.phone, l.source_comment AS "sourceComment", l.ip,
  l.external_id_crm_a AS "externalIdCrmA", l.external_id_crm_b AS "externalIdCrmB",
  l.external_id_crm_c AS "externalIdCrmC", l.external_id_crm_d AS "externalIdCrmD",
  l.status_id AS "statusId", l.lead_type AS "leadType", l.create_method AS "createMethod", l.source,
  l.is_secondary AS "isSecondary", l.previous_lead_id AS "previousLeadId", l.next_lead_id AS "nextLeadId",
  l.planning_call_at AS "planningCallAt", l.priority, l.utc_offset AS "utcOffset", l.time_zone AS "timeZone",
  l.social_a_id::text AS "socialAId", l.social_b_login AS "socialBLogin",
  l.messenger_user_name AS "messengerUserName", l.messenger_phone AS "messengerPhone",
  l.ad_campaign_id AS "adCampaignId", l.custom_values AS "customValues",
  l.selection_type AS "selectionType", l.city, l.additional_params AS "additionalParams",
  l.created_at AS "createdAt", l.updated_at AS "updatedAt"`;

/** The `lead_create` call: the lock key, window and job id, then one parameter per insert column (built once, on first use). */
let leadCreateStatement: PreparedStatement | undefined;
const leadCreateCall = (): PreparedStatement =>
  (leadCreateStatement ??= {
    name: 'lead_create',
    text: `SELECT lead_create(${Array.from({ length: 3 + INSERT_COLUMNS.length }, (_, i) => `$${i + 1}`).join(', ')}) AS id`,
  });

/** `lead_create`'s arguments: the lock key, window and job id, then the insert columns. */
function leadCreateValues(lead: NewLead, link: { since: Date | null; jobId: string | null }): unknown[] {
  return [
    phoneLockKey(lead.orderId, lead.phone),
    link.since,
    link.jobId,
    ...INSERT_COLUMNS.map(([, field]) => (field === 'customValues' ? JSON.stringify(lead.customValues) : (lead[field] ?? null))),
  ];
}

/** insertLinkedForJob's statement: the job row locked while queued, lead_create, the job marked done ($3 is the job id). */
let leadCreateForJobStatement: PreparedStatement | undefined;
const leadCreateForJob = (): PreparedStatement =>
  (leadCreateForJobStatement ??= {
    name: 'lead_create_for_job',
    text: `WITH job AS (SELECT id FROM lead_async_job WHERE id = $3 AND state = 'queued' FOR UPDATE),
      created AS (${leadCreateCall().text.replace(/ AS id$/, ' AS id FROM job')}),
      done AS (
        UPDATE lead_async_job j SET state = 'done', lead_id = created.id, errors = '[]', finished_at = now()
        FROM created WHERE j.id = $3 AND created.id IS NOT NULL RETURNING j.id
      )
      SELECT EXISTS (SELECT 1 FROM job) AS queued, (SELECT id FROM created) AS "leadId", EXISTS (SELECT 1 FROM done) AS done`,
  });

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
 * The detail read, prepared once per connection (planning it was most of its PostgreSQL time),
 * the lead as one JSON column: pg builds a result template of every column on each execution
 * and fills a dictionary-mode object per row, which for the lead's 33 columns cost more of a
 * detail read's CPU than anything else in the driver (json_build_object and one JSON.parse cost less).
 */
const LEAD_DETAIL: PreparedStatement = {
  name: 'lead_detail',
  text: `SELECT json_build_object(${leadJsonPairs(LEAD_SELECT)}) AS lead FROM lead l JOIN call_order o ON o.id = l.order_id WHERE l.id = $1`,
};

/** A lead as LEAD_DETAIL's JSON has it: its times as ISO 8601 text. */
type LeadJson = Omit<Lead, 'planningCallAt' | 'createdAt' | 'updatedAt'> & { planningCallAt: string | null; createdAt: string; updatedAt: string };

/** Insert columns, in the order of `lead_create`'s parameters after the lock key, window and job id; `NewLead` field per column. */
export const INSERT_COLUMNS: [string, keyof NewLead][] = [
  ['order_id', 'orderId'],
  ['phone', 'phone'],
  ['lead_type', 'leadType'],
  ['status_id', 'statusId'],
  ['name', 'name'],
  ['source_comment', 'sourceComment'],
  ['ip', 'ip'],
  ['external_id_crm_a', 'externalIdCrmA'],
  ['external_id_crm_b', 'externalIdCrmB'],
  ['external_id_crm_c', 'externalIdCrmC'],
  ['external_id_crm_d', 'externalIdCrmD'],
  ['create_method', 'createMethod'],
  ['source', 'source'],
  ['planning_call_at', 'planningCallAt'],
  ['priority', 'priority'],
  ['utc_offset', 'utcOffset'],
  ['time_zone', 'timeZone'],
  ['social_a_id', 'socialAId'],
  ['social_b_login', 'socialBLogin'],
  ['messenger_user_name', 'messengerUserName'],
  ['messenger_phone', 'messengerPhone'],
  ['messenger_id', 'messengerId'],
  ['ad_campaign_id', 'adCampaignId'],
  ['custom_values', 'customValues'],
];

/** Writable columns of an update, by domain field. */
export type LeadChanges = Omit<UpdateLeadInput, 'source' | 'socialAId' | 'customValues' | 'planningCallAt'> & {
  source?: string;
  socialAId?: string;
  planningCallAt?: Date | null;
  qualifiedAt?: Date | null;
  /** Replaces the stored map (as for orders). */
  customValues?: Record<string, unknown>;
};

const UPDATE_COLUMN: Record<Exclude<keyof LeadChanges, 'customValues'>, string> = {
  name: 'name',
  phone: 'phone',
  sourceComment: 'source_comment',
  ip: 'ip',
  externalIdCrmA: 'external_id_crm_a',
  externalIdCrmB: 'external_id_crm_b',
  externalIdCrmC: 'external_id_crm_c',
  externalIdCrmD: 'external_id_crm_d',
  statusId: 'status_id',
  priority: 'priority',
  utcOffset: 'utc_offset',
  timeZone: 'time_zone',
  source: 'source',
  adCampaignId: 'ad_campaign_id',
  messengerUserName: 'messenger_user_name',
  messengerPhone: 'messenger_phone',
  socialAId: 'social_a_id',
  socialBLogin: 'social_b_login',
  planningCallAt: 'planning_call_at',
  qualifiedAt: 'qualified_at',
};

/** The state an update decides on, read under a row lock. */
export interface LeadForUpdate {
  orderId: number;
  phone: string;
  statusId: number;
  utcOffset: number;
  timeZone: string | null;
  planningCallAt: Date | null;
  qualifiedAt: Date | null;
  previousLeadId: number | null;
  nextLeadId: number | null;
}

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
   * Creates the lead in one round trip (function `lead_create`, migration 1763864000000): takes
   * the (order, phone) lock until the transaction ends (the statement's own when `db` is not in
   * one), returns the lead a retried job already made, else inserts the lead linked to the most
   * recent lead of the order with this phone created at or after `since` (null: no linking) and
   * points that lead's `next_lead_id` at it. "Most recent" is the highest id: ids are drawn under
   * the lock, so they follow the order in which creates took it, while `created_at` is each
   * transaction's start time. Measured against the four statements it replaces: bench/lead-create.ts.
   */
  async insertLinked(db: Queryable, lead: NewLead, link: { since: Date | null; jobId: string | null }): Promise<number> {
    // Prepared once per connection when `db` is the DataSource (the sync create); in a transaction, on its connection.
    const rows = await queryPrepared<{ id: number | null }>(db, leadCreateCall(), leadCreateValues(lead, link));
    // Null only if a job's insert conflicted and its lead is still not visible: not expected, never silent.
    if (rows[0].id === null) throw new Error(`lead of job ${link.jobId} neither inserted nor found`);
    return rows[0].id;
  }

  /**
   * An asynchronous job's lead in one statement, its own transaction (the worker's drain): locks
   * the job row while it is still `queued` (a job delivered twice waits here, then finds it done),
   * creates and links the lead as insertLinked does (lead_create returns the lead a retried job
   * already made), and marks the job done with the lead's id. Null when the job is no longer queued.
   * lead_create's statements take their own snapshots (a volatile function), so linking sees the
   * creates committed before it as in its own transaction.
   */
  async insertLinkedForJob(db: DataSource | Queryable, lead: NewLead, link: { since: Date | null; jobId: string }): Promise<number | null> {
    const rows = await queryPrepared<{ queued: boolean; leadId: number | null; done: boolean }>(db, leadCreateForJob(), leadCreateValues(lead, link));
    const { queued, leadId, done } = rows[0];
    if (!queued) return null;
    if (leadId === null || !done) throw new Error(`lead of job ${link.jobId} neither inserted nor found`);
    return leadId;
  }

  async findById(id: number): Promise<Lead | null> {
    const rows = await queryPrepared<{ lead: LeadJson }>(this.ds, LEAD_DETAIL, [id]);
    const row = rows[0]?.lead;
    if (!row) return null;
    return {
      ...row,
      planningCallAt: row.planningCallAt === null ? null : new Date(row.planningCallAt),
      createdAt: new Date(row.createdAt),
      updatedAt: new Date(row.updatedAt),
    };
  }

  /** Order and phone, unlocked: to take the phone locks before the row lock (the order the create path uses). */
  async findPhone(m: EntityManager, id: number): Promise<{ orderId: number; phone: string } | null> {
    const rows: { orderId: number; phone: string }[] = await m.query(`SELECT order_id AS "orderId", phone FROM lead WHERE id = $1`, [id]);
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
      `SELECT order_id AS "orderId", phone, status_id AS "statusId", utc_offset AS "utcOffset", time_zone AS "timeZone",
              planning_call_at AS "planningCallAt", qualified_at AS "qualifiedAt",
              previous_lead_id AS "previousLeadId", next_lead_id AS "nextLeadId"
       FROM lead WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** The lead as a recorded call needs it, locked until the call's transaction ends. */
  async lockForCall(m: EntityManager, id: number): Promise<LeadForCall | null> {
    const rows: LeadForCall[] = await m.query(
      `SELECT order_id AS "orderId", phone, attempt_count AS "attemptCount", utc_offset AS "utcOffset", time_zone AS "timeZone"
       FROM lead WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** After a call: the attempt count and the next planned call (null: dialing stops). */
  async recordCallAttempt(m: EntityManager, id: number, attemptCount: number, planningCallAt: Date | null): Promise<void> {
    await m.query(`UPDATE lead SET attempt_count = $2, planning_call_at = $3, updated_at = now() WHERE id = $1`, [id, attemptCount, planningCallAt]);
  }

  async update(m: EntityManager, id: number, changes: LeadChanges): Promise<void> {
    const p = new SqlParams();
    const sets: string[] = [];
    for (const [field, value] of Object.entries(changes) as [keyof LeadChanges, unknown][]) {
      if (value === undefined) continue;
      if (field === 'customValues') sets.push(`custom_values = ${p.add(JSON.stringify(value))}::jsonb`);
      else sets.push(`${UPDATE_COLUMN[field]} = ${p.add(value)}`);
    }
    if (sets.length === 0) return;
    await m.query(`UPDATE lead SET ${sets.join(', ')}, updated_at = now() WHERE id = ${p.add(id)}`, p.values);
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
   * One page ordered by id, with each lead's order code. The page's ids are read per (order,
   * status) through (order_id, status_id, id), per order through (order_id, id), per status
   * through (status_id, id), or along the primary key (pageIdsQuery), confined to `ids` (from
   * `stats`): about one page of index entries however the matching leads are spread over the table.
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
