import { Injectable } from '@nestjs/common';
import { Brackets, DataSource, EntityManager, Repository } from 'typeorm';
import type { Page } from '../../../common/envelope';
import { findPage } from '../../../database/page';
import type { DncEntry, DncList, DncRemovedEntry, DncScope } from '../domain/dnc-entry';
import { DncEntryEntity } from './dnc-entry.entity';

/** What a list read may see: every list (null) or a client's list and its orders' lists. */
export type DncReach = { clientId: number; orderIds: number[] } | null;

export interface DncFilter {
  phone?: string;
  orderId?: number;
  clientId?: number;
  scope?: DncScope;
}

/** The owner column of the unique index: order_id or client_id, 0 for the global list. */
const OWNER = 'coalesce(order_id, client_id, 0)';
/** A removed or expired entry as RETURNING gives it (DncRemovedEntry). */
const REMOVED_ENTRY = `phone, scope, order_id AS "orderId", client_id AS "clientId", expires_at AS "expiresAt", source, call_id AS "callId"`;

@Injectable()
export class DncRepository {
  constructor(private readonly ds: DataSource) {}

  private entries(m: EntityManager = this.ds.manager): Repository<DncEntryEntity> {
    return m.getRepository(DncEntryEntity);
  }

  /**
   * Puts the numbers on the list, or updates reason and expiry of those already on it, never shortening one: the later expiry wins
   * and no expiry (NULL) wins over any; source and call stay (an opt-out's entry stays one). One statement whatever their number.
   */
  async add(list: DncList, phones: string[], fields: { expiresAt: Date | null; reason: string | null }, m: EntityManager): Promise<number> {
    const rows: unknown[] = await m.query(
      `INSERT INTO dnc_entry (phone, scope, order_id, client_id, expires_at, reason, source)
       SELECT p, $2, $3, $4, $5, $6, 'api' FROM unnest($1::text[]) p
       ON CONFLICT (phone, scope, ${OWNER}) DO UPDATE
         SET expires_at = CASE WHEN dnc_entry.expires_at IS NULL OR EXCLUDED.expires_at IS NULL THEN NULL
                               ELSE greatest(dnc_entry.expires_at, EXCLUDED.expires_at) END,
             reason = EXCLUDED.reason, expiry_applied = false
       RETURNING id`,
      [phones, list.scope, list.orderId, list.clientId, fields.expiresAt, fields.reason],
    );
    return rows.length;
  }

  /**
   * Puts a number on the list for an opt-out on a call (source call, no expiry); an entry already there takes the call. Whether
   * anything changed (a re-delivery of the opt-out that made the entry changes nothing).
   */
  async addFromCall(list: DncList, phone: string, callId: number, m: EntityManager): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `INSERT INTO dnc_entry (phone, scope, order_id, client_id, source, call_id) VALUES ($1, $2, $3, $4, 'call', $5)
       ON CONFLICT (phone, scope, ${OWNER}) DO UPDATE SET expires_at = NULL, source = 'call', call_id = EXCLUDED.call_id, expiry_applied = false
       WHERE dnc_entry.expires_at IS NOT NULL OR dnc_entry.source <> 'call' OR dnc_entry.call_id IS DISTINCT FROM EXCLUDED.call_id
       RETURNING id`,
      [phone, list.scope, list.orderId, list.clientId, callId],
    );
    return rows.length > 0;
  }

  /** How many of the numbers' entries on this list an opt-out on a call made (source call). */
  async countOptOuts(list: DncList, phones: string[], m: EntityManager): Promise<number> {
    const [{ n }] = await m.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM dnc_entry WHERE phone = ANY($1::text[]) AND scope = $2 AND ${OWNER} = $3 AND source = 'call'`,
      [phones, list.scope, list.orderId ?? list.clientId ?? 0],
    );
    return n;
  }

  /** Removes the numbers from exactly this list; the entries that were on it. */
  async remove(list: DncList, phones: string[], m: EntityManager): Promise<DncRemovedEntry[]> {
    return m.query<DncRemovedEntry[]>(
      `WITH d AS (DELETE FROM dnc_entry WHERE phone = ANY($1::text[]) AND scope = $2 AND ${OWNER} = $3 RETURNING ${REMOVED_ENTRY})
       SELECT * FROM d`,
      [phones, list.scope, list.orderId ?? list.clientId ?? 0],
    );
  }

  /** Up to `limit` numbers with an entry expired at `now` whose expiry is not applied yet (no lock: the caller locks them next). */
  async expiredNumbers(now: Date, limit: number): Promise<string[]> {
    const rows = await this.ds.query<{ phone: string }[]>(
      `SELECT DISTINCT phone FROM dnc_entry WHERE expires_at IS NOT NULL AND NOT expiry_applied AND expires_at <= $1 LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.phone);
  }

  /** Marks the expiries of these numbers up to `now` applied, under their locks; the entries this call marked. */
  async applyExpiries(m: EntityManager, phones: string[], now: Date): Promise<DncRemovedEntry[]> {
    return m.query<DncRemovedEntry[]>(
      `WITH a AS (UPDATE dnc_entry SET expiry_applied = true
                  WHERE phone = ANY($1::text[]) AND expires_at IS NOT NULL AND NOT expiry_applied AND expires_at <= $2
                  RETURNING ${REMOVED_ENTRY})
       SELECT * FROM a`,
      [phones, now],
    );
  }

  /** Entries by id ascending, filtered, within `reach`; exact total. */
  listPage(filter: DncFilter, reach: DncReach, offset: number, limit: number): Promise<Page<DncEntry>> {
    const q = this.entries().createQueryBuilder('e').orderBy('e.id', 'ASC');
    if (filter.phone !== undefined) q.andWhere('e.phone = :phone', { phone: filter.phone });
    if (filter.orderId !== undefined) q.andWhere('e.order_id = :orderId', { orderId: filter.orderId });
    if (filter.clientId !== undefined) q.andWhere('e.client_id = :clientId', { clientId: filter.clientId });
    if (filter.scope !== undefined) q.andWhere('e.scope = :scope', { scope: filter.scope });
    if (reach !== null) {
      q.andWhere(
        new Brackets((w) =>
          w
            .where(`(e.scope = 'client' AND e.client_id = :reachClient)`, { reachClient: reach.clientId })
            .orWhere(`(e.scope = 'order' AND e.order_id = ANY(:reachOrders))`, { reachOrders: reach.orderIds }),
        ),
      );
    }
    return findPage(q, offset, limit);
  }
}
