import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** What the dispatcher needs of an active webhook to match events. */
export interface Subscription {
  id: number;
  events: string[];
  orderIds: number[];
  createdAt: Date;
}

export interface NewDelivery {
  webhookId: number;
  eventId: string;
  type: string;
  payload: string;
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  webhookId: number;
  eventId: string;
  payload: string;
  attempts: number;
  url: string;
  secret: string;
  previousSecret: string | null;
}

export interface DeliveryOutcome {
  id: string;
  status: 'pending' | 'delivered' | 'failed';
  statusCode: number | null;
  error: string | null;
  /** Wait before the next attempt (status pending). */
  delayMs: number | null;
}

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

  async activeSubscriptions(m: EntityManager): Promise<Subscription[]> {
    return m.query(`SELECT id, events, order_ids AS "orderIds", created_at AS "createdAt" FROM webhook WHERE is_active ORDER BY id`);
  }

  /** Inserts the deliveries (due at once); a (webhook, event) pair already there is left alone. */
  async insertDeliveries(m: EntityManager, rows: NewDelivery[]): Promise<void> {
    if (rows.length === 0) return;
    await m.query(
      `INSERT INTO webhook_delivery (webhook_id, event_id, type, payload, next_attempt_at)
       SELECT w, e, t, b, now() FROM unnest($1::int[], $2::varchar[], $3::varchar[], $4::text[]) AS r(w, e, t, b)
       ON CONFLICT ON CONSTRAINT webhook_delivery_webhook_event_key DO NOTHING`,
      [rows.map((r) => r.webhookId), rows.map((r) => r.eventId), rows.map((r) => r.type), rows.map((r) => r.payload)],
    );
  }

  /**
   * Claims up to `limit` due deliveries of active webhooks: rows locked by another instance's
   * claim are skipped, and each claimed row's next attempt moves `leaseMs` ahead, so a worker that
   * dies mid-send leaves it due again after the lease (at-least-once), while no other claim takes
   * it meanwhile. The claim is its own short statement: no lock is held while sending.
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

  /** Records the attempts of a batch in one statement (attempts + 1 each). */
  async recordOutcomes(m: EntityManager, outcomes: DeliveryOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await m.query(
      `UPDATE webhook_delivery d SET
         attempts = d.attempts + 1,
         status = r.status,
         last_status_code = r.code,
         last_error = r.error,
         next_attempt_at = CASE WHEN r.status = 'pending' THEN now() + make_interval(secs => r.delay_ms::double precision / 1000) END,
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
