import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { IdBounds, PageKey, pageIdsQuery } from '../../../database/counters/counted-page';
import { CountStats } from '../../../database/counters/counter-set';
import { SqlParams, whereOf } from '../../../database/sql-params';
import { callCounting } from './call-counters';
import type { Queryable } from '../../../database/read-database';
import { type CallFilter, type CallRow, NO_AGENT } from '../domain/call';
import { type Assert, entityColumns, type SameKeys } from '../../../database/entity-columns';
import { CallEntity } from './call.entity';

export type NewCall = Omit<CallRow, 'id'> & {
  callbackRequested: boolean;
  platformCallId: string;
  optOut: boolean;
};

const CALL_TABLE = entityColumns(CallEntity);
const NOT_IN_CALL_ROW = ['callbackRequested', 'platformCallId', 'optOut', 'recordedAt'] as const;
/** The columns a CallRow is read from (also by the `call.created` event's snapshot reader). */
export const CALL_ROW_COLUMNS = CALL_TABLE.except(NOT_IN_CALL_ROW);
const CALL_COLUMNS = CALL_ROW_COLUMNS.select();
/** The columns an ingested call names: all but the id and `recorded_at`, which take their defaults. */
const NOT_IN_NEW_CALL = ['id', 'recordedAt'] as const;
const NEW_CALL_COLUMNS = CALL_TABLE.except(NOT_IN_NEW_CALL);

// The compiler keeps CallRow and NewCall to the entity's columns.
type _CallRowIsEntity = Assert<SameKeys<keyof CallRow, Exclude<keyof CallEntity, (typeof NOT_IN_CALL_ROW)[number]>>>;
type _NewCallIsEntity = Assert<SameKeys<keyof NewCall, Exclude<keyof CallEntity, (typeof NOT_IN_NEW_CALL)[number]>>>;

/** The filter as conditions on `call` (columns prefixed with `alias`), less the columns in `skip`. */
function conditions(p: SqlParams, f: CallFilter, alias = '', skip: readonly string[] = []): string[] {
  const conds: string[] = [];
  const add = (column: string, sql: () => string) => void (!skip.includes(column) && conds.push(`${alias}${column}${sql()}`));
  if (f.leadIds?.length) add('lead_id', () => ` = ANY(${p.add(f.leadIds)}::int[])`);
  if (f.orderIds?.length) add('order_id', () => ` = ANY(${p.add(f.orderIds)}::int[])`);
  if (f.userIds?.length && !skip.includes('user_id')) conds.push(agentCondition(p, f.userIds, `${alias}user_id`));
  if (f.statusIds?.length) add('status_id', () => ` = ANY(${p.add(f.statusIds)}::int[])`);
  if (f.from) conds.push(`${alias}created_at >= ${p.add(f.from)}`);
  if (f.to) conds.push(`${alias}created_at <= ${p.add(f.to)}`);
  return conds;
}

/** `userIds` on `column`: the agents' ids, and NULL when NO_AGENT is among them. */
function agentCondition(p: SqlParams, userIds: number[], column: string): string {
  const agents = userIds.filter((id) => id !== NO_AGENT);
  if (agents.length === userIds.length) return `${column} = ANY(${p.add(agents)}::int[])`;
  if (agents.length === 0) return `${column} IS NULL`;
  return `(${column} = ANY(${p.add(agents)}::int[]) OR ${column} IS NULL)`;
}

/**
 * The keys a call page is read by (see pageIdsQuery): (lead_id, id) when leadIds are given, else (order_id, id) per order or
 * (order_id, user_id, id) per (order, agent). Statuses stay a condition: a status is seldom rarer than one call in ten, so a
 * page reads a few pages of entries at most.
 */
function pageKeys(f: CallFilter): PageKey[] {
  if (f.leadIds?.length) return [{ column: 'lead_id', values: f.leadIds }];
  // A branch per key value matches with `=`, which NULL never does: with NO_AGENT the agents are a condition.
  if (f.userIds?.includes(NO_AGENT)) return [{ column: 'order_id', values: f.orderIds ?? [] }];
  return [
    { column: 'order_id', values: f.orderIds ?? [] },
    { column: 'user_id', values: f.userIds ?? [] },
  ];
}

@Injectable()
export class CallsRepository {
  constructor(private readonly ds: DataSource) {}

  /** The call; with `clientId`, only when its order is that client's (the same round trip). */
  async findById(id: number, clientId: number | null = null): Promise<CallRow | null> {
    const rows: CallRow[] =
      clientId === null
        ? await this.ds.query(`SELECT ${CALL_COLUMNS} FROM call WHERE id = $1`, [id])
        : await this.ds.query(`SELECT ${CALL_COLUMNS} FROM call WHERE id = $1 AND order_id IN (SELECT id FROM call_order WHERE client_id = $2)`, [
            id,
            clientId,
          ]);
    return rows[0] ?? null;
  }

  /** One page ordered by id, read per lead, order or (order, agent) (pageKeys), confined to `ids` (from `stats`). */
  async listPage(db: Queryable, filter: CallFilter, offset: number, limit: number, ids?: IdBounds): Promise<CallRow[]> {
    const p = new SqlParams();
    const keys = pageKeys(filter);
    const page = pageIdsQuery(p, {
      table: 'call',
      keys,
      conditions: conditions(
        p,
        filter,
        't.',
        keys.map((k) => k.column),
      ),
      ids,
      offset,
      limit,
    });
    return db.query(`SELECT ${CALL_COLUMNS} FROM (${page}) page JOIN call USING (id) ORDER BY id`, p.values) as Promise<CallRow[]>;
  }

  /**
   * The exact number of calls matching the filter and bounds of their ids, in one statement:
   * from counters or counted exactly, as `callCounting` decides (see call-counters.ts).
   */
  async stats(db: Queryable, filter: CallFilter): Promise<CountStats> {
    const { sql, params } = this.statsQuery(filter);
    const rows = (await db.query(sql, params)) as { n: string; lo: number | null; hi: number | null }[];
    return { total: Number(rows[0].n), minId: rows[0].lo, maxId: rows[0].hi };
  }

  /** The statement behind `stats` (also for EXPLAIN in the benchmark). */
  statsQuery(filter: CallFilter): { sql: string; params: unknown[] } {
    const counting = callCounting(filter);
    if (counting.kind === 'counters') return counting.set.statsQuery(counting.filter);
    const p = new SqlParams();
    const sql = `SELECT count(*)::bigint AS n, min(id) AS lo, max(id) AS hi FROM call ${whereOf(conditions(p, filter))}`;
    return { sql, params: p.values };
  }

  /** Whether the lead has a call other than `callId` that started after `startedAt` (call_lead_idx: a lead has few calls). */
  async hasLaterCall(m: EntityManager, leadId: number, callId: number, startedAt: Date): Promise<boolean> {
    const rows: { later: boolean }[] = await m.query(`SELECT EXISTS (SELECT 1 FROM call WHERE lead_id = $1 AND id <> $2 AND created_at > $3) AS later`, [
      leadId,
      callId,
      startedAt,
    ]);
    return rows[0].later;
  }

  /** Of each lead, its calls that ended in the status given (an outcome rule's maxAttempts counts them), by lead; each order named. */
  async countEndingIn(m: EntityManager, calls: readonly { orderId: number; leadId: number; statusId: number }[]): Promise<Map<number, number>> {
    if (calls.length === 0) return new Map();
    const rows: { leadId: number; n: number }[] = await m.query(
      `SELECT k.lead_id AS "leadId",
              (SELECT count(*)::int FROM call c WHERE c.order_id = k.order_id AND c.lead_id = k.lead_id AND c.status_id = k.status_id) AS n
         FROM unnest($1::int[], $2::int[], $3::int[]) AS k(order_id, lead_id, status_id)`,
      [calls.map((c) => c.orderId), calls.map((c) => c.leadId), calls.map((c) => c.statusId)],
    );
    return new Map(rows.map((r) => [r.leadId, r.n]));
  }

  /** The number a delivered call reached (clientPhone as stored), by its lead's order and platform call id; null before its first delivery. */
  async deliveredClientPhone(m: EntityManager, leadId: number, platformCallId: string): Promise<string | null> {
    const rows: { clientPhone: string }[] = await m.query(
      `SELECT c.client_phone AS "clientPhone" FROM call c WHERE c.order_id = (SELECT l.order_id FROM lead l WHERE l.id = $1) AND c.platform_call_id = $2`,
      [leadId, platformCallId],
    );
    return rows[0]?.clientPhone ?? null;
  }

  /** A re-delivery carried the opt-out the first delivery lacked: the stored call records it (never the other way). */
  async markOptOut(m: EntityManager, id: number): Promise<void> {
    await m.query(`UPDATE call SET opt_out = true WHERE id = $1 AND NOT opt_out`, [id]);
  }

  /** Inserts the call unless the platform already delivered it; returns the id and whether it is new. */
  async insertOnce(m: EntityManager, c: NewCall): Promise<{ id: number; created: boolean }> {
    const inserted: { id: number }[] = await m.query(
      `${NEW_CALL_COLUMNS.insertInto('call')}
       ON CONFLICT (order_id, platform_call_id) DO NOTHING RETURNING id`,
      NEW_CALL_COLUMNS.values(c),
    );
    if (inserted.length > 0) return { id: inserted[0].id, created: true };
    const existing: { id: number }[] = await m.query(`SELECT id FROM call WHERE order_id = $1 AND platform_call_id = $2`, [c.orderId, c.platformCallId]);
    return { id: existing[0].id, created: false };
  }

  /**
   * Inserts the calls the platform has not delivered yet, in item order, in one statement (a call already stored, or one given twice,
   * is skipped); the ids of those inserted, by `order:platformCallId`.
   */
  async insertMany(m: EntityManager, calls: readonly NewCall[]): Promise<Map<string, number>> {
    if (calls.length === 0) return new Map();
    const columns = NEW_CALL_COLUMNS.givenColumns(calls.map((c) => NEW_CALL_COLUMNS.row(c))).join(', ');
    const rows: { id: number; key: string }[] = await m.query(
      `INSERT INTO call (${columns})
       SELECT ${columns} FROM jsonb_populate_recordset(NULL::call, $1) WITH ORDINALITY ORDER BY ordinality
       ON CONFLICT (order_id, platform_call_id) DO NOTHING RETURNING id, order_id || ':' || platform_call_id AS key`,
      [JSON.stringify(calls.map((c) => NEW_CALL_COLUMNS.row(c)))],
    );
    return new Map(rows.map((r) => [r.key, r.id]));
  }

  /** The stored calls of these platform call ids, by `order:platformCallId` (one statement). */
  async findByPlatformIds(m: EntityManager, keys: readonly { orderId: number; platformCallId: string }[]): Promise<Map<string, number>> {
    if (keys.length === 0) return new Map();
    const rows: { id: number; key: string }[] = await m.query(
      `SELECT c.id, c.order_id || ':' || c.platform_call_id AS key
         FROM call c JOIN unnest($1::int[], $2::varchar[]) AS k(order_id, platform_call_id)
           ON c.order_id = k.order_id AND c.platform_call_id = k.platform_call_id`,
      [keys.map((k) => k.orderId), keys.map((k) => k.platformCallId)],
    );
    return new Map(rows.map((r) => [r.key, r.id]));
  }
}

/** How insertMany and findByPlatformIds name a call. */
export const platformKey = (c: { orderId: number; platformCallId: string }) => `${c.orderId}:${c.platformCallId}`;
