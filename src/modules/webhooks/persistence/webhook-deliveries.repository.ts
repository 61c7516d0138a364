import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { AttemptOutcome } from '../domain/retry-schedule';

/** What sending a delivery needs: where, what, and the secrets that sign it. */
export interface DeliveryTarget {
  webhookId: number;
  eventId: string;
  payload: string;
  url: string;
  secret: string;
  /** The previous secret while it still signs (after a rotation), else null. */
  previousSecret: string | null;
}

/** What the dispatcher needs of an active webhook to match events and send them. */
export interface Subscription {
  id: number;
  /** A client's webhook receives only events of that client's orders; null: an unrestricted key's. */
  clientId: number | null;
  events: string[];
  orderIds: number[];
  createdAt: Date;
  url: string;
  secret: string;
  previousSecret: string | null;
  /** Its last attempts failed (no success since): its deliveries go through the retry worker. */
  failing: boolean;
}

export interface NewDelivery {
  webhookId: number;
  eventId: string;
  type: string;
  payload: string;
  /**
   * The first attempt, when the dispatcher made it before storing the row: its outcome, or the
   * lease of an attempt still running (recorded when it ends). Absent: due at once, for the worker.
   */
  first?: { outcome: AttemptOutcome } | { inFlightMs: number };
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery extends DeliveryTarget {
  id: string;
  attempts: number;
}

export type DeliveryOutcome = Omit<AttemptOutcome, 'gone'> & { id: string };

const DISPATCH_LOCK = `hashtextextended('webhook-dispatch', 0)`;

/**
 * SQL of the delivery pipeline, on whichever manager the caller runs it (the worker pool). Each
 * statement is one round trip whatever the batch size.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  /** Whether this transaction holds the dispatcher's lock (one dispatcher at a time across instances). */
  async tryDispatchLock(m: EntityManager): Promise<boolean> {
    const [{ locked }]: { locked: boolean }[] = await m.query(`SELECT pg_try_advisory_xact_lock(${DISPATCH_LOCK}) AS locked`);
    return locked;
  }

  async cursor(m: EntityManager): Promise<number> {
    const [{ position }]: { position: string }[] = await m.query(`SELECT position FROM webhook_dispatch_cursor WHERE id = 1`);
    return Number(position);
  }

  async setCursor(m: EntityManager, position: number): Promise<void> {
    await m.query(`UPDATE webhook_dispatch_cursor SET position = $1, updated_at = now() WHERE id = 1`, [position]);
  }

  /** Moves the cursor forward to `position` (never back). */
  async advanceCursor(m: EntityManager, position: number): Promise<void> {
    await m.query(`UPDATE webhook_dispatch_cursor SET position = $1, updated_at = now() WHERE id = 1 AND position < $1`, [position]);
  }

  /**
   * The active webhooks, each held (FOR KEY SHARE) until the dispatch transaction ends: a webhook deleted meanwhile waits for
   * the deliveries being written, then takes them along (ON DELETE CASCADE), instead of failing their insert on the foreign
   * key. Updates of a webhook (pause, URL, secret) do not wait.
   */
  async activeSubscriptions(m: EntityManager): Promise<Subscription[]> {
    return m.query(
      `SELECT id, client_id AS "clientId", events, order_ids AS "orderIds", created_at AS "createdAt", url, secret,
              CASE WHEN previous_secret_expires_at > now() THEN previous_secret END AS "previousSecret",
              failing_since IS NOT NULL AS failing
         FROM webhook WHERE is_active ORDER BY id FOR KEY SHARE`,
    );
  }

  /** The client of each of these orders that has one (the others are the call center's own), in one statement. */
  async clientsOfOrders(m: EntityManager, orderIds: number[]): Promise<Map<number, number>> {
    if (orderIds.length === 0) return new Map();
    const rows: { id: number; clientId: number }[] = await m.query(
      `SELECT id, client_id AS "clientId" FROM call_order WHERE id = ANY($1::int[]) AND client_id IS NOT NULL`,
      [orderIds],
    );
    return new Map(rows.map((r) => [r.id, r.clientId]));
  }

  /** Which of these (webhook, event) pairs have a delivery already, as `webhookId:eventId` keys. */
  async existingPairs(m: EntityManager, pairs: { webhookId: number; eventId: string }[]): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    const rows: { key: string }[] = await m.query(
      `SELECT d.webhook_id || ':' || d.event_id AS key
         FROM unnest($1::int[], $2::varchar[]) AS p(w, e)
         JOIN webhook_delivery d ON d.webhook_id = p.w AND d.event_id = p.e`,
      [pairs.map((p) => p.webhookId), pairs.map((p) => p.eventId)],
    );
    return new Set(rows.map((r) => r.key));
  }

  /**
   * Inserts the deliveries in one statement, each with the dispatcher's first attempt when made (delivered, retry pending, failed, or
   * leased while running), else due at once; an existing (webhook, event) pair is left alone. Returns inserted ids by `webhookId:eventId`.
   */
  async insertDeliveries(m: EntityManager, rows: NewDelivery[]): Promise<Map<string, string>> {
    if (rows.length === 0) return new Map();
    const first = rows.map((r) => r.first);
    const outcome = (f: NewDelivery['first']) => (f && 'outcome' in f ? f.outcome : null);
    // An INSERT's result is its rows (UPDATE and DELETE also give the count).
    const inserted: { key: string; id: string }[] = await m.query(
      `INSERT INTO webhook_delivery (webhook_id, event_id, type, payload, status, attempts, last_status_code, last_error, next_attempt_at, delivered_at)
       SELECT w, e, t, b, s, a, c, err,
              CASE WHEN s = 'pending' THEN clock_timestamp() + make_interval(secs => coalesce(wait_ms, 0)::double precision / 1000) END,
              CASE WHEN s = 'delivered' THEN now() END
         FROM unnest($1::int[], $2::varchar[], $3::varchar[], $4::text[], $5::varchar[], $6::int[], $7::int[], $8::varchar[], $9::bigint[])
           AS r(w, e, t, b, s, a, c, err, wait_ms)
       ON CONFLICT ON CONSTRAINT webhook_delivery_webhook_event_key DO NOTHING
       RETURNING webhook_id || ':' || event_id AS key, id`,
      [
        rows.map((r) => r.webhookId),
        rows.map((r) => r.eventId),
        rows.map((r) => r.type),
        rows.map((r) => r.payload),
        first.map((f) => outcome(f)?.status ?? 'pending'),
        first.map((f) => (outcome(f) ? 1 : 0)),
        first.map((f) => outcome(f)?.statusCode ?? null),
        first.map((f) => outcome(f)?.error ?? null),
        first.map((f) => (f === undefined ? 0 : 'inFlightMs' in f ? f.inFlightMs : f.outcome.delayMs)),
      ],
    );
    return new Map(inserted.map((r) => [r.key, r.id]));
  }

  /**
   * Claims up to `limit` due deliveries of active webhooks, skipping rows another claim holds, and moves each one's next attempt `leaseMs`
   * ahead: a worker dying mid-send leaves it due again after the lease (at-least-once). Its own short statement: no lock held while sending.
   */
  async claimDue(m: EntityManager, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const [rows]: [ClaimedDelivery[], number] = await m.query(
      `WITH due AS (
         SELECT d.id FROM webhook_delivery d
          WHERE d.status = 'pending' AND d.next_attempt_at <= now()
            AND EXISTS (SELECT 1 FROM webhook w WHERE w.id = d.webhook_id AND w.is_active)
          ORDER BY d.next_attempt_at
          LIMIT $1
          FOR UPDATE OF d SKIP LOCKED)
       UPDATE webhook_delivery d SET next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
         FROM due, webhook w
        WHERE d.id = due.id AND w.id = d.webhook_id
       RETURNING d.id, d.webhook_id AS "webhookId", d.event_id AS "eventId", d.payload, d.attempts, w.url, w.secret,
         CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret END AS "previousSecret"`,
      [limit, leaseMs],
    );
    return rows;
  }

  /** Records the attempts of a batch in one statement (attempts + 1 each); a retry waits from now, not from the transaction's start. */
  async recordOutcomes(m: EntityManager, outcomes: DeliveryOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await m.query(
      `UPDATE webhook_delivery d SET
         attempts = d.attempts + 1,
         status = r.status,
         last_status_code = r.code,
         last_error = r.error,
         next_attempt_at = CASE WHEN r.status = 'pending' THEN clock_timestamp() + make_interval(secs => r.delay_ms::double precision / 1000) END,
         delivered_at = CASE WHEN r.status = 'delivered' THEN now() ELSE d.delivered_at END,
         updated_at = now()
       FROM unnest($1::bigint[], $2::varchar[], $3::int[], $4::varchar[], $5::bigint[]) AS r(id, status, code, error, delay_ms)
       WHERE d.id = r.id`,
      [
        outcomes.map((o) => o.id),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.statusCode),
        outcomes.map((o) => o.error),
        outcomes.map((o) => o.delayMs),
      ],
    );
  }

  /** A success ends the webhook's run of failures. */
  async markSucceeded(m: EntityManager, webhookIds: number[]): Promise<void> {
    if (webhookIds.length === 0) return;
    await m.query(`UPDATE webhook SET failing_since = NULL WHERE id = ANY($1::int[]) AND failing_since IS NOT NULL`, [webhookIds]);
  }

  /**
   * Starts (or continues) the webhooks' runs of failures; those failing for `disableAfterHours`
   * are turned off with the reason. Returns the ids turned off.
   */
  async markFailed(m: EntityManager, webhookIds: number[], disableAfterHours: number): Promise<number[]> {
    if (webhookIds.length === 0) return [];
    await m.query(`UPDATE webhook SET failing_since = now() WHERE id = ANY($1::int[]) AND failing_since IS NULL`, [webhookIds]);
    const [rows]: [{ id: number }[], number] = await m.query(
      `UPDATE webhook SET is_active = false, disabled_at = now(), updated_at = now(),
         disabled_reason = 'deliveries failed without a success since ' || to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
       WHERE id = ANY($1::int[]) AND is_active AND failing_since <= now() - make_interval(hours => $2)
       RETURNING id`,
      [webhookIds, disableAfterHours],
    );
    return rows.map((r) => r.id);
  }

  /** Turns webhooks off with a reason (410 Gone). Returns the ids turned off now. */
  async disable(m: EntityManager, webhookIds: number[], reason: string): Promise<number[]> {
    if (webhookIds.length === 0) return [];
    const [rows]: [{ id: number }[], number] = await m.query(
      `UPDATE webhook SET is_active = false, disabled_reason = $2, disabled_at = now(), updated_at = now()
        WHERE id = ANY($1::int[]) AND is_active RETURNING id`,
      [webhookIds, reason],
    );
    return rows.map((r) => r.id);
  }

  /** Deletes deliveries older than the events' retention, at most `limit` per call. */
  async pruneOlderThan(m: EntityManager, days: number, limit: number): Promise<number> {
    const [, affected]: [unknown[], number] = await m.query(
      `DELETE FROM webhook_delivery WHERE id IN (
         SELECT id FROM webhook_delivery WHERE created_at < now() - make_interval(days => $1) ORDER BY created_at LIMIT $2)`,
      [days, limit],
    );
    return affected;
  }

  /** Backlog: deliveries pending, and the age of the oldest due one (seconds). */
  async backlog(m: EntityManager): Promise<{ pending: number; oldestDueSeconds: number }> {
    const [row]: { pending: number; oldest: number | null }[] = await m.query(
      `SELECT count(*)::int AS pending, extract(epoch FROM now() - min(next_attempt_at) FILTER (WHERE next_attempt_at <= now()))::float8 AS oldest
         FROM webhook_delivery WHERE status = 'pending'`,
    );
    return { pending: row.pending, oldestDueSeconds: Math.max(0, Math.round(row.oldest ?? 0)) };
  }
}
