import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** A do-not-call list as the leads see it: which leads of a number it covers. */
export interface DncListScope {
  scope: 'global' | 'client' | 'order';
  orderId: number | null;
  clientId: number | null;
}

/** Whether an active entry of the global list, the order's client's list or the order's list covers the lead `l` of order `o`. */
const BLOCKING_ENTRY = `EXISTS (SELECT 1 FROM dnc_entry d WHERE d.phone = l.phone AND (d.expires_at IS NULL OR d.expires_at > $2)
  AND (d.scope = 'global' OR (d.scope = 'client' AND d.client_id = o.client_id) OR (d.scope = 'order' AND d.order_id = l.order_id)))`;

@Injectable()
export class LeadDncRepository {
  constructor(private readonly ds: DataSource) {}

  /** Whether a do-not-call entry blocks the lead at `at`. */
  async isBlocked(leadId: number, at: Date): Promise<boolean> {
    const rows = await this.ds.query<{ blocked: boolean }[]>(
      `SELECT ${BLOCKING_ENTRY} AS blocked FROM lead l JOIN call_order o ON o.id = l.order_id WHERE l.id = $1`,
      [leadId, at],
    );
    return rows[0]?.blocked ?? false;
  }

  /** Stops the planned calls of every lead of these numbers the list covers: one statement whatever their number (triggers emit lead.updated). */
  async stopPlanned(phones: string[], list: DncListScope, m: EntityManager): Promise<number> {
    const [{ n }] = await m.query<{ n: number }[]>(
      `WITH s AS (
         UPDATE lead l SET planning_call_at = NULL
         FROM call_order o
         WHERE o.id = l.order_id AND l.phone = ANY($1::text[]) AND l.planning_call_at IS NOT NULL
           AND ($2 = 'global' OR ($2 = 'client' AND o.client_id = $3) OR ($2 = 'order' AND l.order_id = $3))
         RETURNING 1)
       SELECT count(*)::int AS n FROM s`,
      [phones, list.scope, list.orderId ?? list.clientId],
    );
    return n;
  }
}
