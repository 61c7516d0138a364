import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { OrderChanges } from '../domain/order';
import type { OrderRecord } from '../domain/order-record';
import type { OrderSettings } from '../domain/order-settings';
import type { Page } from '../../../common/envelope';
import { findPage } from '../../../database/page';

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

const ORDER_COLUMNS = `
  o.id, o.code, o.service_title AS "serviceTitle", o.title, o.status,
  o.call_schedule AS "callSchedule", ${HOLIDAYS} AS "callHolidayOverrides",
  o.auto_dialing_enabled AS "autoDialingEnabled", o.predictive_mode_enabled AS "predictiveModeEnabled",
  o.ai_default_language AS "aiDefaultLanguage", o.amd_detection_enabled AS "amdDetectionEnabled",
  o.call_record_rule AS "callRecordRule", o.sip_endpoint_usage_scheme AS "sipEndpointUsageScheme",
  o.show_lead_contacts_to_agent AS "showLeadContactsToAgent", o.call_attempt_group_id AS "callAttemptGroupId",
  o.qualified_leads_per_day_limit AS "qualifiedLeadsPerDayLimit", o.call_scenario_id AS "callScenarioId",
  o.lead_transform_enabled AS "leadTransformEnabled", o.speech_recognition_enabled AS "speechRecognitionEnabled",
  o.ignore_lead_timezone AS "ignoreLeadTimezone", o.default_utc_offset AS "defaultUtcOffset",
  o.default_time_zone AS "defaultTimeZone",
  o.custom_values AS "customValues", o.agent_lead_creation_is_allowed AS "agentLeadCreationIsAllowed",
  o.agent_lead_edit_mode AS "agentLeadEditMode", o.auto_process_call AS "autoProcessCall",
  o.created_at AS "createdAt", o.updated_at AS "updatedAt",
  ${MEMBERS}`;

/** Scalar fields of OrderChanges -> column and SQL cast. Member sets live in their own tables. */
const COLUMN_OF: Partial<Record<keyof OrderChanges, [string, string]>> = {
  code: ['code', 'varchar'],
  serviceTitle: ['service_title', 'varchar'],
  title: ['title', 'varchar'],
  status: ['status', 'varchar'],
  callSchedule: ['call_schedule', 'jsonb'],
  callHolidayOverrides: ['call_holiday_overrides', 'date[]'],
  autoDialingEnabled: ['auto_dialing_enabled', 'boolean'],
  predictiveModeEnabled: ['predictive_mode_enabled', 'boolean'],
  aiDefaultLanguage: ['ai_default_language', 'varchar'],
  amdDetectionEnabled: ['amd_detection_enabled', 'boolean'],
  callRecordRule: ['call_record_rule', 'varchar'],
  sipEndpointUsageScheme: ['sip_endpoint_usage_scheme', 'varchar'],
  showLeadContactsToAgent: ['show_lead_contacts_to_agent', 'boolean'],
  callAttemptGroupId: ['call_attempt_group_id', 'int'],
  qualifiedLeadsPerDayLimit: ['qualified_leads_per_day_limit', 'int'],
  callScenarioId: ['call_scenario_id', 'int'],
  leadTransformEnabled: ['lead_transform_enabled', 'boolean'],
  speechRecognitionEnabled: ['speech_recognition_enabled', 'boolean'],
  ignoreLeadTimezone: ['ignore_lead_timezone', 'boolean'],
  defaultUtcOffset: ['default_utc_offset', 'smallint'],
  defaultTimeZone: ['default_time_zone', 'varchar'],
  customValues: ['custom_values', 'jsonb'],
  agentLeadCreationIsAllowed: ['agent_lead_creation_is_allowed', 'boolean'],
  agentLeadEditMode: ['agent_lead_edit_mode', 'varchar'],
  autoProcessCall: ['auto_process_call', 'boolean'],
};

function scalarColumns(changes: OrderChanges): { columns: string[]; casts: string[]; values: unknown[] } {
  const columns: string[] = [];
  const casts: string[] = [];
  const values: unknown[] = [];
  for (const [key, value] of Object.entries(changes) as [keyof OrderChanges, unknown][]) {
    const col = COLUMN_OF[key];
    if (!col || value === undefined) continue;
    columns.push(col[0]);
    casts.push(col[1]);
    values.push(col[1] === 'jsonb' ? JSON.stringify(value) : value);
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

  /** With `m`: inside the caller's transaction (the order event records what it wrote). */
  async findById(id: number, m: EntityManager = this.ds.manager): Promise<OrderRecord | null> {
    const rows: OrderRecord[] = await m.query(`SELECT ${ORDER_COLUMNS} FROM call_order o WHERE o.id = $1`, [id]);
    return rows[0] ?? null;
  }

  async listPage(offset: number, limit: number): Promise<Page<OrderRecord>> {
    return findPage<OrderRecord>(
      { db: this.ds, select: `SELECT ${ORDER_COLUMNS} FROM call_order o ORDER BY o.id`, count: `SELECT count(*)::int AS n FROM call_order` },
      offset,
      limit,
    );
  }

  async findSettings(id: number, m: EntityManager = this.ds.manager): Promise<OrderSettingsRow | null> {
    const rows: OrderSettingsRow[] = await m.query(
      `SELECT o.id, o.code, o.call_schedule AS "callSchedule", ${HOLIDAYS} AS holidays,
              o.ignore_lead_timezone AS "ignoreLeadTimezone", o.default_utc_offset AS "defaultUtcOffset",
              o.default_time_zone AS "defaultTimeZone",
              o.qualified_leads_per_day_limit AS "qualifiedLeadsPerDayLimit", o.call_attempt_group_id AS "callAttemptGroupId"
         FROM call_order o WHERE o.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Codes that could collide with candidates derived from `prefix` (see uniqueCodeCandidate). */
  async codesStartingWith(m: EntityManager, prefix: string): Promise<Set<string>> {
    const rows: { code: string }[] = await m.query(`SELECT code FROM call_order WHERE code LIKE $1`, [likePrefix(prefix)]);
    return new Set(rows.map((r) => r.code));
  }

  /** Inserts the order row unless the code is taken (then null): a taken code never aborts the transaction. */
  async insertOrder(m: EntityManager, changes: OrderChanges & { code: string }): Promise<number | null> {
    const { columns, casts, values } = scalarColumns(changes);
    const rows: { id: number }[] = await m.query(
      `INSERT INTO call_order (${columns.join(', ')}) VALUES (${casts.map((c, i) => `$${i + 1}::${c}`).join(', ')})
       ON CONFLICT (code) DO NOTHING RETURNING id`,
      values,
    );
    return rows[0]?.id ?? null;
  }

  async isCodeTakenByAnother(m: EntityManager, code: string, id: number): Promise<boolean> {
    const rows: unknown[] = await m.query(`SELECT 1 FROM call_order WHERE code = $1 AND id <> $2`, [code, id]);
    return rows.length > 0;
  }

  /** Locks the order row for the rest of the transaction; false when it does not exist. */
  async lock(m: EntityManager, id: number): Promise<boolean> {
    const rows: unknown[] = await m.query(`SELECT id FROM call_order WHERE id = $1 FOR UPDATE`, [id]);
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
}
