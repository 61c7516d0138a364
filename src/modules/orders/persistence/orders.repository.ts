import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { OrderChanges } from '../domain/order';
import type { OrderRecord } from '../domain/order-record';
import type { OrderSettings } from '../domain/order-settings';
import type { OrderAssignments } from '../domain/order-assignments';
import type { Page } from '../../../common/envelope';
import { findPage } from '../../../database/page';
import { type Assert, entityColumns, type SameKeys } from '../../../database/entity-columns';
import { CallOrderEntity } from './call-order.entity';

/** What the leads module reads of an order (see OrdersService.getOrderSettings). */
export type OrderSettingsRow = OrderSettings;

// Holidays are read as text: node-pg would turn a `date` into a Date at local midnight.
const HOLIDAYS = `ARRAY(SELECT to_char(d, 'YYYY-MM-DD') FROM unnest(o.call_holiday_overrides) AS d ORDER BY d)`;

/**
 * The member sets, each read through its table's primary key (which leads with order_id) in the
 * same statement as the order: an order is one round trip, a page of orders one (plus its count).
 */
const MEMBERS = `
  ARRAY(SELECT a.user_id FROM order_agent a WHERE a.order_id = o.id ORDER BY a.user_id) AS "agentUserIds",
  ARRAY(SELECT g.group_id FROM order_agent_group g WHERE g.order_id = o.id ORDER BY g.group_id) AS "agentGroupIds",
  ARRAY(SELECT s.sip_endpoint_id FROM order_sip_endpoint s WHERE s.order_id = o.id ORDER BY s.position) AS "sipEndpointIds",
  coalesce((SELECT json_agg(json_build_object('number', t.number, 'names', t.names) ORDER BY t.position)
              FROM order_transfer_number t WHERE t.order_id = o.id), '[]') AS "transferNumbers"`;

const CALL_ORDER = entityColumns(CallOrderEntity);
/** OrderChanges and OrderRecord fields that are rows of the member tables, not call_order columns. */
type MemberSet = 'agentUserIds' | 'agentGroupIds' | 'sipEndpointIds' | 'transferNumbers';
/** call_order columns OrderRecord leaves out. */
const NOT_IN_RECORD = ['createdBy', 'updatedBy'] as const;

// The compiler keeps OrderRecord and OrderChanges to the entity's columns (and the member sets).
type _RecordIsEntity = Assert<SameKeys<Exclude<keyof OrderRecord, MemberSet>, Exclude<keyof CallOrderEntity, (typeof NOT_IN_RECORD)[number]>>>;
type _ChangesAreColumns = Assert<SameKeys<Exclude<keyof OrderChanges, MemberSet>, Exclude<keyof OrderChanges, MemberSet> & keyof CallOrderEntity>>;

const ORDER_COLUMNS = `${CALL_ORDER.except(NOT_IN_RECORD).select('o', { callHolidayOverrides: HOLIDAYS })}, ${MEMBERS}`;

/** What findSettings reads: the order's planning settings, holidays as `holidays`. */
const SETTINGS_COLUMNS = [
  CALL_ORDER.only(['id', 'code', 'clientId', 'callSchedule']).select('o'),
  `${HOLIDAYS} AS holidays`,
  CALL_ORDER.only([
    'ignoreLeadTimezone',
    'defaultUtcOffset',
    'defaultTimeZone',
    'qualifiedLeadsPerDayLimit',
    'callAttemptGroupId',
    'consentRequired',
    'maxAttemptsPerDay',
    'redialRules',
  ]).select('o'),
].join(', ');

/** The call_order columns of the scalar fields of `changes`, their SQL types for casts, and the values (member sets aside). */
function scalarColumns(changes: OrderChanges): { columns: string[]; casts: string[]; values: unknown[] } {
  const columns: string[] = [];
  const casts: string[] = [];
  const values: unknown[] = [];
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || !CALL_ORDER.has(key)) continue;
    const column = CALL_ORDER.get(key);
    columns.push(column.databaseName);
    casts.push(column.sqlType);
    values.push(column.kind === 'json' ? JSON.stringify(value) : value);
  }
  return { columns, casts, values };
}

/** `_` and `%` are LIKE wildcards and `_` is allowed in codes. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Plain SQL over call_order and its member tables; orders are read with their member sets in one statement (see MEMBERS). */
@Injectable()
export class OrdersRepository {
  constructor(private readonly ds: DataSource) {}

  /**
   * With `m`: inside the caller's transaction (the order event records what it wrote). With
   * `clientId`: only an order of that client (null otherwise), in the same statement.
   */
  async findById(id: number, m: EntityManager = this.ds.manager, clientId: number | null = null): Promise<OrderRecord | null> {
    const rows: OrderRecord[] =
      clientId === null
        ? await m.query(`SELECT ${ORDER_COLUMNS} FROM call_order o WHERE o.id = $1`, [id])
        : await m.query(`SELECT ${ORDER_COLUMNS} FROM call_order o WHERE o.id = $1 AND o.client_id = $2`, [id, clientId]);
    return rows[0] ?? null;
  }

  /** The orders of `ids` that exist, in one statement (any order). */
  async findManyById(ids: readonly number[], m: EntityManager = this.ds.manager): Promise<OrderRecord[]> {
    if (!ids.length) return [];
    return m.query(`SELECT ${ORDER_COLUMNS} FROM call_order o WHERE o.id = ANY($1::int[])`, [ids]);
  }

  /** Orders by id; with `clientId`, only that client's (count and page through call_order_client_id_idx). */
  async listPage(offset: number, limit: number, clientId: number | null = null): Promise<Page<OrderRecord>> {
    if (clientId === null) {
      return findPage<OrderRecord>(
        { db: this.ds, select: `SELECT ${ORDER_COLUMNS} FROM call_order o ORDER BY o.id`, count: `SELECT count(*)::int AS n FROM call_order` },
        offset,
        limit,
      );
    }
    return findPage<OrderRecord>(
      {
        db: this.ds,
        select: `SELECT ${ORDER_COLUMNS} FROM call_order o WHERE o.client_id = $1 ORDER BY o.id`,
        count: `SELECT count(*)::int AS n FROM call_order WHERE client_id = $1`,
        params: [clientId],
      },
      offset,
      limit,
    );
  }

  async findSettings(id: number, m: EntityManager = this.ds.manager): Promise<OrderSettingsRow | null> {
    const rows: OrderSettingsRow[] = await m.query(`SELECT ${SETTINGS_COLUMNS} FROM call_order o WHERE o.id = $1`, [id]);
    return rows[0] ?? null;
  }

  /**
   * Codes of `clientId`'s orders (null: orders of no client) that could collide with candidates derived from `prefix`
   * (see uniqueCodeCandidate): codes are unique per client, so other clients' codes never count.
   */
  async codesStartingWith(m: EntityManager, prefix: string, clientId: number | null): Promise<Set<string>> {
    const rows: { code: string }[] =
      clientId === null
        ? await m.query(`SELECT code FROM call_order WHERE client_id IS NULL AND code LIKE $1`, [likePrefix(prefix)])
        : await m.query(`SELECT code FROM call_order WHERE client_id = $2 AND code LIKE $1`, [likePrefix(prefix), clientId]);
    return new Set(rows.map((r) => r.code));
  }

  /** Inserts the order row unless its client (or no client) has the code already (then null): a taken code never aborts the transaction. */
  async insertOrder(m: EntityManager, changes: OrderChanges & { code: string }): Promise<number | null> {
    const { columns, casts, values } = scalarColumns(changes);
    // The conflict target is the unique index of the order's namespace (CALL_ORDER_CLIENT_CODE_INDEX or CALL_ORDER_OWN_CODE_INDEX).
    const target = changes.clientId == null ? '(code) WHERE client_id IS NULL' : '(client_id, code) WHERE client_id IS NOT NULL';
    const rows: { id: number }[] = await m.query(
      `INSERT INTO call_order (${columns.join(', ')}) VALUES (${casts.map((c, i) => `$${i + 1}::${c}`).join(', ')})
       ON CONFLICT ${target} DO NOTHING RETURNING id`,
      values,
    );
    return rows[0]?.id ?? null;
  }

  /** Whether an order other than `id` has `code` among the orders of `clientId` (null: of no client). */
  async isCodeTakenByAnother(m: EntityManager, code: string, clientId: number | null, id: number): Promise<boolean> {
    const rows: unknown[] =
      clientId === null
        ? await m.query(`SELECT 1 FROM call_order WHERE client_id IS NULL AND code = $1 AND id <> $2`, [code, id])
        : await m.query(`SELECT 1 FROM call_order WHERE client_id = $3 AND code = $1 AND id <> $2`, [code, id, clientId]);
    return rows.length > 0;
  }

  /**
   * The users and agent groups assigned to a client's orders (order_agent, order_agent_group), each
   * id once, ascending: one statement, from call_order_client_id_idx through the member tables' keys.
   */
  async assignmentsOfClient(clientId: number, m: EntityManager = this.ds.manager): Promise<OrderAssignments> {
    const rows: OrderAssignments[] = await m.query(
      `SELECT ARRAY(SELECT DISTINCT a.user_id FROM call_order o JOIN order_agent a ON a.order_id = o.id WHERE o.client_id = $1 ORDER BY 1) AS "agentUserIds",
              ARRAY(SELECT DISTINCT g.group_id FROM call_order o JOIN order_agent_group g ON g.order_id = o.id WHERE o.client_id = $1 ORDER BY 1) AS "agentGroupIds"`,
      [clientId],
    );
    return rows[0];
  }

  /** Locks the order row for the rest of the transaction; false when it does not exist (or, with `clientId`, is not that client's). */
  async lock(m: EntityManager, id: number, clientId: number | null = null): Promise<boolean> {
    const rows: unknown[] =
      clientId === null
        ? await m.query(`SELECT id FROM call_order WHERE id = $1 FOR UPDATE`, [id])
        : await m.query(`SELECT id FROM call_order WHERE id = $1 AND client_id = $2 FOR UPDATE`, [id, clientId]);
    return rows.length > 0;
  }

  /** Sets the scalar fields present in `changes` (and updated_at). */
  async updateOrder(m: EntityManager, id: number, changes: OrderChanges): Promise<void> {
    const { columns, casts, values } = scalarColumns(changes);
    const sets = columns.map((c, i) => `${c} = $${i + 2}::${casts[i]}`);
    await m.query(`UPDATE call_order SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1`, [id, ...values]);
  }

  /** Replaces the member sets present in `changes`; absent ones are left as they are. */
  async replaceMembers(m: EntityManager, orderId: number, changes: OrderChanges, fresh = false): Promise<void> {
    if (changes.agentUserIds) {
      if (!fresh) await m.query(`DELETE FROM order_agent WHERE order_id = $1`, [orderId]);
      await m.query(`INSERT INTO order_agent (order_id, user_id) SELECT $1, u FROM unnest($2::int[]) AS u`, [orderId, changes.agentUserIds]);
    }
    if (changes.agentGroupIds) {
      if (!fresh) await m.query(`DELETE FROM order_agent_group WHERE order_id = $1`, [orderId]);
      await m.query(`INSERT INTO order_agent_group (order_id, group_id) SELECT $1, g FROM unnest($2::int[]) AS g`, [orderId, changes.agentGroupIds]);
    }
    if (changes.sipEndpointIds) {
      if (!fresh) await m.query(`DELETE FROM order_sip_endpoint WHERE order_id = $1`, [orderId]);
      await m.query(
        `INSERT INTO order_sip_endpoint (order_id, sip_endpoint_id, position)
         SELECT $1, s.id, s.n - 1 FROM unnest($2::int[]) WITH ORDINALITY AS s(id, n)`,
        [orderId, changes.sipEndpointIds],
      );
    }
    if (changes.transferNumbers) {
      if (!fresh) await m.query(`DELETE FROM order_transfer_number WHERE order_id = $1`, [orderId]);
      if (changes.transferNumbers.length > 0) {
        await m.query(
          `INSERT INTO order_transfer_number (order_id, position, number, names)
           SELECT $1, t.n - 1, t.item->>'number', t.item->'names'
             FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t(item, n)`,
          [orderId, JSON.stringify(changes.transferNumbers)],
        );
      }
    }
  }

  /** The ids of a client's orders, ascending (through call_order_client_id_idx). */
  async idsOfClient(clientId: number, m?: EntityManager): Promise<number[]> {
    const rows: { id: number }[] = await (m ?? this.ds.manager).query('SELECT id FROM call_order WHERE client_id = $1 ORDER BY id', [clientId]);
    return rows.map((r) => r.id);
  }
}
