import { MigrationInterface, QueryRunner } from 'typeorm';
import { leadCreateWithTimeZoneSql } from './1763900300000-lead-time-zones';

/**
 * `lead_create`'s previous-lead lookup pinned to the `(order_id, phone, id)` index. PL/pgSQL keeps
 * a session's plans: a plan made while the table was young (or with stale statistics) could read
 * the order's `(order_id, created_at)` range instead, every lead of the order in the duplicate
 * window, and keep doing so on that pooled connection (seen in one bench run: 6.6 ms per create
 * in that lookup). The window condition on `created_at + interval '0 s'` cannot use that index, so the
 * lookup walks only the phone's own leads, newest first. The batch insert (lead-bulk.repository.ts)
 * does the same. Everything else is version 1763900300000 unchanged (same signature).
 */
export class LeadCreatePreviousByPhone1763900600000 implements MigrationInterface {
  name = 'LeadCreatePreviousByPhone1763900600000';

  async up(q: QueryRunner): Promise<void> {
    // + interval '0 s' keeps (order_id, created_at) out of the plan: only (order_id, phone, id) answers.
    await q.query(leadCreateWithTimeZoneSql("l.created_at + interval '0 s' >= p_since"));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(leadCreateWithTimeZoneSql());
  }
}
