import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { PlanningHold } from '../domain/lead';

/** A do-not-call list as the leads see it: which leads of a number it covers. */
export interface DncListScope {
  scope: 'global' | 'client' | 'order';
  orderId: number | null;
  clientId: number | null;
}

/** Held leads that share what their next call depends on: order, zone, daily cap still running, consent. */
export interface HeldGroup {
  orderId: number;
  timeZone: string | null;
  utcOffset: number;
  capUntil: Date | null;
  hasConsent: boolean;
}

/** Which held leads a release plans again: those a list held, of these numbers; or those an order's consent rule held. */
export type HeldSelector = { hold: 'dnc'; phones: string[] } | { hold: 'dnc' | 'consent'; orderId: number };

/** The selector as a condition on `l`, its values from $1 ($1 phones or order id). */
function heldWhere(s: HeldSelector): { sql: string; value: unknown } {
  return 'phones' in s
    ? { sql: `l.phone = ANY($1::text[]) AND l.planning_hold = 'dnc'`, value: s.phones }
    : { sql: `l.order_id = $1 AND l.planning_hold = '${s.hold}'`, value: s.orderId };
}

@Injectable()
export class LeadHoldsRepository {
  constructor(private readonly ds: DataSource) {}

  /** Whether an active do-not-call entry covers the lead at `at` (function dnc_blocks, as the lead trigger checks). */
  async isBlocked(leadId: number, at: Date): Promise<boolean> {
    const rows = await this.ds.query<{ blocked: boolean }[]>(`SELECT dnc_blocks(l.phone, l.order_id, $2) AS blocked FROM lead l WHERE l.id = $1`, [leadId, at]);
    return rows[0]?.blocked ?? false;
  }

  /**
   * The numbers' bucket locks until the transaction ends (function dnc_lock): exclusive for a list write, so creates of those
   * numbers wait; shared for a write that may plan a lead of them.
   */
  async lockNumbers(m: EntityManager, phones: string[], exclusive = true): Promise<void> {
    await m.query(`SELECT dnc_lock($1::text[], $2)`, [phones, exclusive]);
  }

  /** lockNumbers for a lead's number, read without a row lock (taken before the lead's row lock, as creates take theirs). */
  async lockNumberOfLead(m: EntityManager, leadId: number): Promise<void> {
    await m.query(`SELECT dnc_lock(ARRAY[phone]::text[], true) FROM lead WHERE id = $1`, [leadId]);
  }

  /**
   * Stops the planned calls of every lead of these numbers the list covers, held as `dnc`, and writes their lead.updated events in the
   * same statement, in the order the update meets the leads (set-based: the per-row event trigger stands aside, see lead_stopped_event).
   */
  async stopPlanned(phones: string[], list: DncListScope, m: EntityManager): Promise<number> {
    await m.query(`SELECT set_config('app.lead_events_by_statement', 'on', true)`);
    const [{ n }] = await m.query<{ n: number }[]>(
      `WITH s AS (
         UPDATE lead l SET planning_call_at = NULL, planning_hold = 'dnc', updated_at = now()
         FROM call_order o
         WHERE o.id = l.order_id AND l.phone = ANY($1::text[]) AND l.planning_call_at IS NOT NULL
           AND ($2 = 'global' OR ($2 = 'client' AND o.client_id = $3) OR ($2 = 'order' AND l.order_id = $3))
         RETURNING l AS row),
       e AS (INSERT INTO event (type, order_id, payload)
             SELECT 'lead.updated', (s.row).order_id, lead_stopped_event(s.row) FROM s RETURNING 1)
       SELECT count(*)::int AS n FROM e`,
      [phones, list.scope, list.orderId ?? list.clientId],
    );
    await m.query(`SELECT set_config('app.lead_events_by_statement', 'off', true)`);
    return n;
  }

  /** The groups of held leads a release plans (capUntil only while it runs past `now`). */
  async heldGroups(m: EntityManager, selector: HeldSelector, now: Date): Promise<HeldGroup[]> {
    const where = heldWhere(selector);
    return m.query(
      `SELECT l.order_id AS "orderId", l.time_zone AS "timeZone", l.utc_offset AS "utcOffset",
              CASE WHEN l.daily_cap_until > $2 THEN l.daily_cap_until END AS "capUntil", l.consent IS NOT NULL AS "hasConsent"
       FROM lead l WHERE ${where.sql} GROUP BY 1, 2, 3, 4, 5`,
      [where.value, now],
    );
  }

  /**
   * Plans the held leads again, each group's leads at its time with its hold (null: none), in one statement; the lead trigger
   * holds again those another entry still covers. How many leads changed.
   */
  async replanHeld(
    m: EntityManager,
    selector: HeldSelector,
    now: Date,
    plans: { group: HeldGroup; at: Date | null; hold: PlanningHold | null }[],
  ): Promise<number> {
    if (plans.length === 0) return 0;
    const where = heldWhere(selector);
    const [{ n }] = await m.query<{ n: number }[]>(
      `WITH r AS (
         UPDATE lead l SET planning_call_at = g.at, planning_hold = g.hold, updated_at = now()
         FROM unnest($3::int[], $4::text[], $5::int[], $6::timestamptz[], $7::bool[], $8::timestamptz[], $9::text[])
              AS g(order_id, time_zone, utc_offset, cap_until, has_consent, at, hold)
         WHERE ${where.sql} AND l.order_id = g.order_id AND l.time_zone IS NOT DISTINCT FROM g.time_zone AND l.utc_offset = g.utc_offset
           AND (CASE WHEN l.daily_cap_until > $2 THEN l.daily_cap_until END) IS NOT DISTINCT FROM g.cap_until
           AND (l.consent IS NOT NULL) = g.has_consent
         RETURNING 1)
       SELECT count(*)::int AS n FROM r`,
      [
        where.value,
        now,
        plans.map((p) => p.group.orderId),
        plans.map((p) => p.group.timeZone),
        plans.map((p) => p.group.utcOffset),
        plans.map((p) => p.group.capUntil),
        plans.map((p) => p.group.hasConsent),
        plans.map((p) => p.at),
        plans.map((p) => p.hold),
      ],
    );
    return n;
  }

  /** The order's planned leads an entry covers now (its client changed) stop, held as `dnc`: one statement. */
  async holdListedOfOrder(m: EntityManager, orderId: number): Promise<number> {
    const [{ n }] = await m.query<{ n: number }[]>(
      `WITH s AS (
         UPDATE lead SET planning_call_at = NULL, planning_hold = 'dnc', updated_at = now()
         WHERE order_id = $1 AND planning_call_at IS NOT NULL AND dnc_blocks(phone, order_id, now()) RETURNING 1)
       SELECT count(*)::int AS n FROM s`,
      [orderId],
    );
    return n;
  }

  /** An order began to require consent: its planned leads without consent stop, held as `consent`. */
  async holdWithoutConsent(m: EntityManager, orderId: number): Promise<number> {
    const [{ n }] = await m.query<{ n: number }[]>(
      `WITH s AS (
         UPDATE lead SET planning_call_at = NULL, planning_hold = 'consent', updated_at = now()
         WHERE order_id = $1 AND consent IS NULL AND planning_call_at IS NOT NULL RETURNING 1)
       SELECT count(*)::int AS n FROM s`,
      [orderId],
    );
    return n;
  }
}
