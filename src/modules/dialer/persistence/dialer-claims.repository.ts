import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Page } from '../../../common/envelope';
import { findPage } from '../../../database/page';
import { callEndsClaim, type DialerClaim, type DueLead } from '../domain/claim';

const CLAIM_COLUMNS = `claim_token AS "claimToken", dialer_id AS "dialerId", order_id AS "orderId", lead_id AS "leadId",
  claimed_at AS "claimedAt", lease_expires_at AS "leaseExpiresAt"`;

/** An order a claim may reach: its weight, whether it dials. */
export interface ClaimOrder {
  id: number;
  dialWeight: number;
  autoDialingEnabled: boolean;
}

/**
 * dialer_claim, and the reads of due leads a claim makes. The due leads are read here, beside the claims they are matched with,
 * because the claim is set-based (two statements whatever the limit); the leads module still makes and writes every decision.
 */
@Injectable()
export class DialerClaimsRepository {
  constructor(private readonly ds: DataSource) {}

  /** The orders named (every order whose autodialing is on when `ids` is absent). */
  async claimOrders(m: EntityManager, ids: number[] | undefined): Promise<ClaimOrder[]> {
    const where = ids ? 'id = ANY($1::int[])' : 'auto_dialing_enabled';
    return m.query<ClaimOrder[]>(
      `SELECT id, dial_weight AS "dialWeight", auto_dialing_enabled AS "autoDialingEnabled" FROM call_order WHERE ${where} ORDER BY id`,
      ids ? [ids] : [],
    );
  }

  /**
   * Up to `perOrder` (order id to count) due leads of each order, in queue order (priority, planned time, id), that no live claim holds and no rule
   * holds as stored (a daily cap whose day has ended holds no more, as holdAt reads it), each row locked `FOR NO KEY UPDATE SKIP
   * LOCKED` until the claim's transaction ends: parallel claims skip each other's leads instead of waiting (and do not block a
   * call's foreign key check). One statement; each order's part is a range of lead_order_dial_queue_idx.
   */
  lockDueLeads(m: EntityManager, perOrder: ReadonlyMap<number, number>, now: Date): Promise<DueLead[]> {
    return m.query<DueLead[]>(
      `SELECT d.* FROM unnest($1::int[], $3::int[]) AS o(id, n) CROSS JOIN LATERAL (
         SELECT l.id AS "leadId", l.order_id AS "orderId", l.priority, l.planning_call_at AS "plannedAt", l.phone, l.name,
                l.time_zone AS "timeZone", l.utc_offset AS "utcOffset", l.attempt_count AS "attemptCount", l.custom_values AS "customValues"
         FROM lead l
         WHERE l.order_id = o.id AND l.planning_call_at <= $2
           AND (l.dialing_hold IS NULL OR (l.dialing_hold = ARRAY['daily_attempt_cap']::varchar[] AND l.daily_cap_until <= $2))
           AND NOT EXISTS (SELECT 1 FROM dialer_claim c WHERE c.order_id = l.order_id AND c.lead_id = l.id AND c.lease_expires_at > $2)
         ORDER BY l.priority DESC, l.planning_call_at, l.id
         LIMIT o.n
         FOR NO KEY UPDATE OF l SKIP LOCKED) d`,
      [[...perOrder.keys()], now, [...perOrder.values()]],
    );
  }

  /**
   * Of leads this transaction has locked (lockDueLeads), those a parallel claim holds live: one that committed after lockDueLeads
   * took its snapshot, whose locks lockDueLeads then waited out of. A statement of its own sees it; with the leads locked, no
   * other claim can take them any more.
   */
  async liveClaimedAmong(m: EntityManager, leads: readonly { orderId: number; leadId: number }[], now: Date): Promise<Set<number>> {
    if (leads.length === 0) return new Set();
    const rows = await m.query<{ leadId: number }[]>(
      `SELECT c.lead_id AS "leadId" FROM dialer_claim c JOIN unnest($1::int[], $2::int[]) AS k(order_id, lead_id)
         ON c.order_id = k.order_id AND c.lead_id = k.lead_id
        WHERE c.lease_expires_at > $3`,
      [leads.map((l) => l.orderId), leads.map((l) => l.leadId), now],
    );
    return new Set(rows.map((r) => r.leadId));
  }

  /**
   * Claims the leads for `dialerId` in one statement: a lead's row is written, or replaced when its lease has expired; a live claim
   * is never replaced (the guard against a second live claim, whatever the locks). Answers the claims written and how many of
   * them replaced an expired claim.
   */
  async insertClaims(
    m: EntityManager,
    leads: { orderId: number; leadId: number }[],
    dialerId: string,
    now: Date,
    leaseExpiresAt: Date,
  ): Promise<{ claims: DialerClaim[]; expired: number }> {
    if (leads.length === 0) return { claims: [], expired: 0 };
    const rows = await m.query<(DialerClaim & { replaced: boolean })[]>(
      `INSERT INTO dialer_claim AS c (order_id, lead_id, claim_token, dialer_id, claimed_at, lease_expires_at)
       SELECT p.order_id, p.lead_id, gen_random_uuid(), $3, $4, $5 FROM unnest($1::int[], $2::int[]) AS p(order_id, lead_id)
       ON CONFLICT (order_id, lead_id) DO UPDATE
         SET claim_token = EXCLUDED.claim_token, dialer_id = EXCLUDED.dialer_id, claimed_at = EXCLUDED.claimed_at,
             lease_expires_at = EXCLUDED.lease_expires_at
         WHERE c.lease_expires_at <= $4
       RETURNING ${CLAIM_COLUMNS}, xmax <> 0 AS replaced`,
      [leads.map((l) => l.orderId), leads.map((l) => l.leadId), dialerId, now, leaseExpiresAt],
    );
    return { claims: rows.map(({ replaced: _replaced, ...c }) => c), expired: rows.filter((r) => r.replaced).length };
  }

  /** The live claims of these tokens. */
  liveClaims(m: EntityManager, tokens: string[], now: Date): Promise<DialerClaim[]> {
    return m.query<DialerClaim[]>(`SELECT ${CLAIM_COLUMNS} FROM dialer_claim WHERE claim_token = ANY($1::uuid[]) AND lease_expires_at > $2`, [tokens, now]);
  }

  /** Ends the live claims of these tokens; the claims it ended. (A DELETE's rows are read through a CTE: TypeORM answers a bare one with [rows, count].) */
  endClaims(m: EntityManager, tokens: string[], now: Date): Promise<DialerClaim[]> {
    return m.query<DialerClaim[]>(
      `WITH d AS (DELETE FROM dialer_claim WHERE claim_token = ANY($1::uuid[]) AND lease_expires_at > $2 RETURNING *) SELECT ${CLAIM_COLUMNS} FROM d`,
      [tokens, now],
    );
  }

  /**
   * A call of the lead ends its claim: the claim of `token` when it is the lead's live claim (false: it is not), or, without a
   * token, any claim of the lead. An expired claim of the lead goes too.
   */
  async endClaimOfLead(m: EntityManager, orderId: number, leadId: number, token: string | undefined, now: Date): Promise<boolean> {
    const rows = await m.query<{ live: boolean; token: string }[]>(
      `WITH d AS (DELETE FROM dialer_claim WHERE order_id = $1 AND lead_id = $2 RETURNING lease_expires_at, claim_token)
       SELECT lease_expires_at > $3 AS live, claim_token AS token FROM d`,
      [orderId, leadId, now],
    );
    return callEndsClaim(token, rows[0]);
  }

  /** Ends the claims of these leads (calls recorded in a batch), in one statement. */
  async endClaimsOfLeads(m: EntityManager, leads: readonly { orderId: number; leadId: number }[]): Promise<void> {
    if (leads.length === 0) return;
    await m.query(
      `DELETE FROM dialer_claim c USING unnest($1::int[], $2::int[]) AS k(order_id, lead_id) WHERE c.order_id = k.order_id AND c.lead_id = k.lead_id`,
      [leads.map((l) => l.orderId), leads.map((l) => l.leadId)],
    );
  }

  /** The claims of these leads, live or not, locked until `m` ends: a call's token is checked against them before the call is stored. */
  async lockClaimsOfLeads(
    m: EntityManager,
    leads: readonly { orderId: number; leadId: number }[],
    now: Date,
  ): Promise<Map<number, { live: boolean; token: string }>> {
    if (leads.length === 0) return new Map();
    const rows = await m.query<{ leadId: number; live: boolean; token: string }[]>(
      `SELECT c.lead_id AS "leadId", c.lease_expires_at > $3 AS live, c.claim_token AS token
         FROM dialer_claim c JOIN unnest($1::int[], $2::int[]) AS k(order_id, lead_id) ON c.order_id = k.order_id AND c.lead_id = k.lead_id
        ORDER BY c.order_id, c.lead_id FOR UPDATE OF c`,
      [leads.map((l) => l.orderId), leads.map((l) => l.leadId), now],
    );
    return new Map(rows.map((r) => [r.leadId, { live: r.live, token: r.token }]));
  }

  /** Deletes claims whose lease has expired (the sweep); how many. */
  async deleteExpired(now: Date): Promise<number> {
    const [{ n }] = await this.ds.query<{ n: number }[]>(
      `WITH d AS (DELETE FROM dialer_claim WHERE lease_expires_at <= $1 RETURNING 1) SELECT count(*)::int AS n FROM d`,
      [now],
    );
    return n;
  }

  /** Live claims by lease expiry, then lead, filtered; exact total. */
  listLive(filter: { orderId?: number; dialerId?: string }, now: Date, offset: number, limit: number): Promise<Page<DialerClaim>> {
    const params: unknown[] = [now];
    let where = 'lease_expires_at > $1';
    if (filter.orderId !== undefined) where += ` AND order_id = $${params.push(filter.orderId)}`;
    if (filter.dialerId !== undefined) where += ` AND dialer_id = $${params.push(filter.dialerId)}`;
    return findPage<DialerClaim>(
      {
        db: this.ds,
        params,
        count: `SELECT count(*)::int AS n FROM dialer_claim WHERE ${where}`,
        select: `SELECT ${CLAIM_COLUMNS} FROM dialer_claim WHERE ${where} ORDER BY lease_expires_at, order_id, lead_id`,
      },
      offset,
      limit,
    );
  }
}
