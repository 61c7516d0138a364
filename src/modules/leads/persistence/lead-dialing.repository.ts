import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DialStop } from '../../dialing/domain/redial-rule';
import type { DialingDecision, DialingHold, HoldReason } from '../../dialing/domain/dialing-decision';

/** A do-not-call list as the leads see it: which leads of a number it covers. */
export interface DncListScope {
  scope: 'global' | 'client' | 'order';
  orderId: number | null;
  clientId: number | null;
}

/** Which leads a decision is made again for. */
export type LeadSelector = { ids: number[] } | { orderId: number } | { phones: string[]; heldBy: HoldReason };

/** A lead's stored inputs of the dialing decision and its stored result, read under its row lock. */
export interface LeadDialingRow {
  id: number;
  orderId: number;
  timeZone: string | null;
  utcOffset: number;
  hasConsent: boolean;
  dialAfter: Date | null;
  dncListed: boolean;
  /** Starts of its calls of the last two days (domain/recent-calls.ts: RECENT_CALLS_MS, the interval in readFacts). */
  callStarts: Date[];
  planningCallAt: Date | null;
  hold: DialingHold | null;
  dailyCapUntil: Date | null;
}

/** A lead as a call is recorded against it: the decision's facts before the call, and what the call path reads of the lead. */
/** The lead columns a decision writes. */
export interface DecisionColumns {
  planningCallAt: Date | null;
  dialingHold: HoldReason[] | null;
  dialingHoldSince: Date | null;
  dailyCapUntil: Date | null;
}

export interface LeadCallFacts extends LeadDialingRow {
  phone: string;
  attemptCount: number;
}

/** How many leads one read-decide-write round takes (an order's leads go in rounds, each its own two statements). */
export const DECIDE_CHUNK = 2_000;

function selectorWhere(s: LeadSelector): { sql: string; value: unknown } {
  if ('ids' in s) return { sql: `l.id = ANY($1::int[])`, value: s.ids };
  if ('orderId' in s) return { sql: `l.order_id = $1`, value: s.orderId };
  return { sql: `l.phone = ANY($1::text[]) AND l.dialing_hold @> ARRAY['${s.heldBy}']::varchar[]`, value: s.phones };
}

type RawRow = Omit<LeadDialingRow, 'hold'> & { holdReasons: HoldReason[] | null; holdSince: Date | null };

@Injectable()
export class LeadDialingRepository {
  /**
   * For a write of do-not-call entries: the orders the lists cover (`'every'`: all of them), locked `FOR UPDATE` in id order until the
   * transaction ends. A create or update that may plan a lead of them holds its order `FOR KEY SHARE` before it checks the lists (the
   * lead trigger, lockOrderOfLead), so it waits for the write and then sees its entries; the write waits for those already running
   * and then sees their leads. Row locks meet wherever the order's row lives (on a distributed database, beside its leads).
   */
  async lockListOrders(m: EntityManager, lists: DncListScope[] | 'every'): Promise<void> {
    const p: unknown[] = [];
    const covers = (l: DncListScope) => {
      if (l.scope === 'global') return 'true';
      p.push(l.scope === 'client' ? l.clientId : l.orderId);
      return `${l.scope === 'client' ? 'client_id' : 'id'} = $${p.length}`;
    };
    const where = lists === 'every' || lists.some((l) => l.scope === 'global') ? 'true' : lists.map(covers).join(' OR ') || 'false';
    await m.query(`SELECT id FROM call_order WHERE ${where} ORDER BY id FOR UPDATE`, p);
  }

  /** A lead's order `FOR KEY SHARE` (see lockListOrders), before the lead's row lock. */
  async lockOrderOfLead(m: EntityManager, leadId: number): Promise<void> {
    await m.query(`SELECT o.id FROM call_order o WHERE o.id = (SELECT order_id FROM lead WHERE id = $1) FOR KEY SHARE`, [leadId]);
  }

  /**
   * Leads given back by a dialer with a delay: their orders `FOR KEY SHARE` (as lockOrderOfLead), then the moment each is wanted
   * moved to `at` (never earlier; a stopped lead, dial_after null, stays stopped). The caller decides them again.
   */
  async deferDialAfter(m: EntityManager, ids: number[], at: Date): Promise<void> {
    await m.query(`SELECT o.id FROM call_order o WHERE o.id IN (SELECT order_id FROM lead WHERE id = ANY($1::int[])) ORDER BY o.id FOR KEY SHARE`, [ids]);
    await m.query(`UPDATE lead SET dial_after = $2, updated_at = now() WHERE id = ANY($1::int[]) AND dial_after < $2`, [ids, at]);
  }

  /** A lead's order's client (null: the call center's own; undefined: no such lead), read without a lock. */
  async clientOfLead(m: EntityManager, leadId: number): Promise<number | null | undefined> {
    const rows = await m.query<{ clientId: number | null }[]>(
      `SELECT o.client_id AS "clientId" FROM lead l JOIN call_order o ON o.id = l.order_id WHERE l.id = $1`,
      [leadId],
    );
    return rows[0]?.clientId;
  }

  /**
   * Up to `limit` selected leads after id `afterId`, locked in id order, with every input of the decision: whether a list covers the number now (dnc_blocks,
   * the coverage rule the lead trigger applies) and the starts of the recent calls.
   */
  async lockFacts(m: EntityManager, selector: LeadSelector, now: Date, afterId = 0, limit = DECIDE_CHUNK): Promise<LeadDialingRow[]> {
    const where = selectorWhere(selector);
    return this.readFacts(m, `l.phone`, `${where.sql} AND l.id > $3 ORDER BY l.id LIMIT $4 FOR UPDATE OF l`, [where.value, now, afterId, limit]);
  }

  /** One lead's facts, as they will be once its number is `phone` (an update's new number); the caller holds its row lock. */
  async factsOf(m: EntityManager, id: number, phone: string | undefined, now: Date): Promise<LeadDialingRow | null> {
    const rows = await this.readFacts(m, `coalesce($3::text, l.phone)`, `l.id = $1`, [id, now, phone ?? null]);
    return rows[0] ?? null;
  }

  /**
   * The lead a call is recorded against, locked until `m` ends, with the decision's facts as they stand before the call; null when
   * there is none. `lockOrder`: its order `FOR KEY SHARE` first, in the same statement (the scalar subquery runs before the lead's
   * row is locked, as lockOrderOfLead then the row lock would); else the caller holds its orders already (an opt-out's lists). No
   * list write can then change `dncListed` before the transaction ends.
   */
  async lockForCall(m: EntityManager, id: number, now: Date, lockOrder: boolean): Promise<LeadCallFacts | null> {
    const rows = await this.readFacts(
      m,
      `l.phone`,
      lockOrder
        ? `l.id = $1 AND l.order_id = (SELECT o.id FROM call_order o WHERE o.id = (SELECT order_id FROM lead WHERE id = $1) FOR KEY SHARE) FOR UPDATE OF l`
        : `l.id = $1 FOR UPDATE OF l`,
      [id, now],
      `, l.phone, l.attempt_count AS "attemptCount"`,
    );
    return (rows[0] as LeadCallFacts | undefined) ?? null;
  }

  /**
   * lockForCall of many leads (calls recorded in a batch): their orders `FOR KEY SHARE`, then the leads' rows in id order, each with
   * the decision's facts before the call. Leads that do not exist are not in the answer.
   */
  async lockForCalls(m: EntityManager, ids: readonly number[], now: Date): Promise<LeadCallFacts[]> {
    // In id order, as a list write takes them FOR UPDATE (lockListOrders): two such writes never wait for each other in a cycle.
    await m.query(`SELECT o.id FROM call_order o WHERE o.id IN (SELECT order_id FROM lead WHERE id = ANY($1::int[])) ORDER BY o.id FOR KEY SHARE`, [ids]);
    return (await this.readFacts(
      m,
      `l.phone`,
      `l.id = ANY($1::int[]) ORDER BY l.id FOR UPDATE OF l`,
      [ids, now],
      `, l.phone, l.attempt_count AS "attemptCount"`,
    )) as LeadCallFacts[];
  }

  /**
   * Calls recorded in a batch, one statement for all their leads: each lead's attempt count, the wanted moment and stop when the
   * call moves them (`wanted`), and the decision made with the call counted (none: the columns stay).
   */
  async writeCallAttempts(
    m: EntityManager,
    rows: { id: number; attemptCount: number; wanted?: { dialAfter: Date | null; dialStop: DialStop | null }; decision: DecisionColumns | null }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await m.query(
      `UPDATE lead l SET attempt_count = d.attempts,
              dial_after = CASE WHEN d.moved THEN d.dial_after ELSE l.dial_after END,
              dial_stop = CASE WHEN d.moved THEN d.dial_stop ELSE l.dial_stop END,
              planning_call_at = CASE WHEN d.decided THEN d.at ELSE l.planning_call_at END,
              dialing_hold = CASE WHEN d.decided THEN string_to_array(d.hold, ',')::varchar[] ELSE l.dialing_hold END,
              dialing_hold_since = CASE WHEN d.decided THEN d.since ELSE l.dialing_hold_since END,
              daily_cap_until = CASE WHEN d.decided THEN d.cap ELSE l.daily_cap_until END,
              updated_at = now()
         FROM unnest($1::int[], $2::int[], $3::bool[], $4::timestamptz[], $5::varchar[], $6::bool[], $7::timestamptz[], $8::text[],
                     $9::timestamptz[], $10::timestamptz[])
              AS d(id, attempts, moved, dial_after, dial_stop, decided, at, hold, since, cap)
        WHERE l.id = d.id`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.attemptCount),
        rows.map((r) => r.wanted !== undefined),
        rows.map((r) => r.wanted?.dialAfter ?? null),
        rows.map((r) => r.wanted?.dialStop ?? null),
        rows.map((r) => r.decision !== null),
        rows.map((r) => r.decision?.planningCallAt ?? null),
        rows.map((r) => r.decision?.dialingHold?.join(',') ?? null),
        rows.map((r) => r.decision?.dialingHoldSince ?? null),
        rows.map((r) => r.decision?.dailyCapUntil ?? null),
      ],
    );
  }

  /** The facts of the leads `where` selects (and the `extra` columns), the lists checked for the number `phone` says; $2 is now. */
  private async readFacts(m: EntityManager, phone: string, where: string, params: unknown[], extra = ''): Promise<LeadDialingRow[]> {
    const rows = await m.query<RawRow[]>(
      `SELECT l.id, l.order_id AS "orderId", l.time_zone AS "timeZone", l.utc_offset AS "utcOffset", l.consent IS NOT NULL AS "hasConsent",
              l.dial_after AS "dialAfter", dnc_blocks(${phone}, l.order_id, $2) AS "dncListed",
              ARRAY(SELECT c.created_at FROM call c WHERE c.lead_id = l.id AND c.created_at > $2::timestamptz - interval '2 days') AS "callStarts",
              l.planning_call_at AS "planningCallAt", l.dialing_hold AS "holdReasons", l.dialing_hold_since AS "holdSince",
              l.daily_cap_until AS "dailyCapUntil"${extra}
       FROM lead l WHERE ${where}`,
      params,
    );
    return rows.map(({ holdReasons, holdSince, ...r }) => ({ ...r, hold: holdReasons && holdSince ? { reasons: holdReasons, since: holdSince } : null }));
  }

  /**
   * Writes the decisions that differ from what the leads hold, in one statement; the lead trigger still holds a lead whose number
   * a list covers by then, and the row event trigger writes each change's lead.updated. How many leads changed.
   */
  async writeDecisions(m: EntityManager, decisions: { id: number; decision: DialingDecision }[]): Promise<number> {
    if (decisions.length === 0) return 0;
    const [{ n }] = await m.query<{ n: number }[]>(
      `WITH w AS (
         UPDATE lead l SET planning_call_at = d.at, dialing_hold = string_to_array(d.hold, ',')::varchar[], dialing_hold_since = d.since,
                daily_cap_until = d.cap, updated_at = now()
         FROM unnest($1::int[], $2::timestamptz[], $3::text[], $4::timestamptz[], $5::timestamptz[]) AS d(id, at, hold, since, cap)
         WHERE l.id = d.id
           AND (l.planning_call_at, l.dialing_hold, l.dialing_hold_since, l.daily_cap_until)
               IS DISTINCT FROM (d.at, string_to_array(d.hold, ',')::varchar[], d.since, d.cap)
         RETURNING 1)
       SELECT count(*)::int AS n FROM w`,
      [
        decisions.map((d) => d.id),
        decisions.map((d) => d.decision.planningCallAt),
        decisions.map((d) => d.decision.hold?.reasons.join(',') ?? null),
        decisions.map((d) => d.decision.hold?.since ?? null),
        decisions.map((d) => d.decision.capUntil),
      ],
    );
    return n;
  }

  /**
   * The do-not-call part of the decision, set-based, for an add of many numbers: every lead of these numbers the list covers is
   * held (dnc_hold_reasons: 'dnc' first, no planned call, no daily cap). An ordinary update: the row
   * event trigger writes each lead's lead.updated. A lead held from now has `now`'s whole second as its hold's start (a parameter:
   * Citus refuses a clock read inside CASE). How many leads it held.
   */
  async holdListed(phones: string[], list: DncListScope, m: EntityManager, now = new Date()): Promise<number> {
    const [{ n }] = await m.query<{ n: number }[]>(
      `WITH s AS (
         UPDATE lead l SET planning_call_at = NULL, daily_cap_until = NULL, dialing_hold = dnc_hold_reasons(l.dialing_hold),
                dialing_hold_since = CASE WHEN l.dialing_hold IS NULL THEN $5::timestamptz ELSE l.dialing_hold_since END, updated_at = now()
         FROM call_order o
         WHERE o.id = l.order_id AND l.phone = ANY($1::text[])
           AND l.dialing_hold IS DISTINCT FROM dnc_hold_reasons(l.dialing_hold)
           AND dnc_covers($2, $3, $4, l.order_id, o.client_id)
         RETURNING 1)
       SELECT count(*)::int AS n FROM s`,
      [phones, list.scope, list.orderId, list.clientId, new Date(Math.floor(now.getTime() / 1000) * 1000)],
    );
    return n;
  }
}
