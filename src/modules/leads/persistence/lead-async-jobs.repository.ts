import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { ClientAccess } from '../../../common/auth-context';
import type { FieldError } from '../../../common/domain-error';

export type AsyncJobState = 'queued' | 'done' | 'failed';

export interface AsyncJob {
  id: string;
  state: AsyncJobState;
  leadId: number | null;
  errors: FieldError[];
  createdAt: Date;
  finishedAt: Date | null;
}

/** A job as the worker reads it: `clientId` is the client of the key that made it (null: unrestricted). */
export interface PendingJob {
  state: AsyncJobState;
  payload: unknown;
  clientId: number | null;
}

/**
 * The key that made a job, for its client (`k.client_id`): keys are revoked, never deleted, and
 * keep their client, so a job's client is fixed when it is accepted.
 */
const JOB_CLIENT_JOIN = 'LEFT JOIN api_key k ON k.id = j.api_key_id';

/** Queued rows the lost-job sweep reads and checks against the queue per round. */
const ORPHAN_SWEEP_PAGE = 1000;

/** `lead_async_job`: the client-visible state of an asynchronous lead creation. */
@Injectable()
export class LeadAsyncJobsRepository {
  constructor(private readonly ds: DataSource) {}

  /** False when a job with this id exists already (a retried request whose id is fixed by its Idempotency-Key). */
  async insert(m: EntityManager, job: { id: string; orderId: number; payload: object; apiKeyId: number | null }): Promise<boolean> {
    const { sql, values } = this.insertStatement(job);
    const rows: unknown[] = await m.query(sql, values);
    return rows.length > 0;
  }

  /** The same insert as a statement, to run with the job's enqueueing in one round trip (JobQueueService.sendWithRow). */
  insertStatement(job: { id: string; orderId: number; payload: object; apiKeyId: number | null }): { sql: string; values: unknown[] } {
    return {
      sql: `INSERT INTO lead_async_job (id, order_id, payload, api_key_id) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING RETURNING id`,
      values: [job.id, job.orderId, JSON.stringify(job.payload), job.apiKeyId],
    };
  }

  /**
   * The job, or null when there is none or `access` does not reach it: a client key reaches the
   * jobs in its client's orders as they are now, whichever key made them, so a job moves with its order.
   */
  async findById(id: string, access: ClientAccess): Promise<AsyncJob | null> {
    const rows: AsyncJob[] = await this.ds.query(
      `SELECT j.id, j.state, j.lead_id AS "leadId", j.errors, j.created_at AS "createdAt", j.finished_at AS "finishedAt"
         FROM lead_async_job j LEFT JOIN call_order o ON o.id = j.order_id
        WHERE j.id = $1 AND ($2::int IS NULL OR o.client_id = $2)`,
      [id, access.clientId],
    );
    return rows[0] ?? null;
  }

  /** The job's state and payload, and the client of the key that made it (the worker creates under its reach). */
  async findPending(id: string, m: EntityManager = this.ds.manager): Promise<PendingJob | null> {
    const rows: PendingJob[] = await m.query(`SELECT j.state, j.payload, k.client_id AS "clientId" FROM lead_async_job j ${JOB_CLIENT_JOIN} WHERE j.id = $1`, [
      id,
    ]);
    return rows[0] ?? null;
  }

  /**
   * The rows of many jobs in one query, in the order they were accepted (`created_at`, ties in the
   * order given); ids without a row are absent.
   */
  async findPendingMany(ids: string[], m: EntityManager = this.ds.manager): Promise<(PendingJob & { id: string })[]> {
    return m.query(
      `SELECT j.id, j.state, j.payload, k.client_id AS "clientId" FROM lead_async_job j ${JOB_CLIENT_JOIN}
        WHERE j.id = ANY($1::uuid[]) ORDER BY j.created_at, array_position($1::uuid[], j.id)`,
      [ids],
    );
  }

  /** Locks the job row: one worker at a time acts on a job, whatever the queue delivers twice. */
  async lockState(m: EntityManager, id: string): Promise<AsyncJobState | null> {
    const rows: { state: AsyncJobState }[] = await m.query(`SELECT state FROM lead_async_job WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0]?.state ?? null;
  }

  async markDone(m: EntityManager, id: string, leadId: number): Promise<void> {
    await m.query(`UPDATE lead_async_job SET state = 'done', lead_id = $2, errors = '[]', finished_at = now() WHERE id = $1`, [id, leadId]);
  }

  async markFailed(id: string, errors: FieldError[], m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(`UPDATE lead_async_job SET state = 'failed', errors = $2, finished_at = now() WHERE id = $1 AND state = 'queued'`, [
      id,
      JSON.stringify(errors),
    ]);
  }

  /** markFailed for many jobs, each with its own errors, in one statement. */
  async markFailedMany(failures: { id: string; errors: FieldError[] }[], m: EntityManager = this.ds.manager): Promise<void> {
    if (failures.length === 0) return;
    await m.query(
      `UPDATE lead_async_job j SET state = 'failed', errors = f.errors, finished_at = now()
         FROM jsonb_to_recordset($1::jsonb) AS f(id uuid, errors jsonb)
        WHERE j.id = f.id AND j.state = 'queued'`,
      [JSON.stringify(failures)],
    );
  }

  /**
   * Marks `failed` every `queued` row whose job `liveIds` (the queue's answer) says is neither waiting
   * nor running, a page at a time. A row and its job commit together, so a queued row without a live
   * job has lost it; one finished meanwhile is no longer `queued` and stays as it is.
   */
  async failOrphaned(liveIds: (ids: string[]) => Promise<Set<string>>, errors: FieldError[], m: EntityManager = this.ds.manager): Promise<number> {
    let failed = 0;
    let after: { createdAt: string; id: string } | undefined;
    for (;;) {
      const page = await this.queuedPage(m, after);
      if (page.length === 0) return failed;
      const live = await liveIds(page.map((r) => r.id));
      const lost = page.filter((r) => !live.has(r.id)).map((r) => r.id);
      if (lost.length > 0) failed += await this.failQueued(m, lost, errors);
      if (page.length < ORPHAN_SWEEP_PAGE) return failed;
      after = page[page.length - 1];
    }
  }

  /** Queued rows by (created_at, id) after `after`; created_at as text, to resume at its full precision. */
  private queuedPage(m: EntityManager, after?: { createdAt: string; id: string }): Promise<{ createdAt: string; id: string }[]> {
    const select = `SELECT id, created_at::text AS "createdAt" FROM lead_async_job WHERE state = 'queued'`;
    if (!after) return m.query(`${select} ORDER BY created_at, id LIMIT $1`, [ORPHAN_SWEEP_PAGE]);
    return m.query(`${select} AND (created_at, id) > ($2::timestamptz, $3::uuid) ORDER BY created_at, id LIMIT $1`, [
      ORPHAN_SWEEP_PAGE,
      after.createdAt,
      after.id,
    ]);
  }

  /** Marks these rows `failed` with the same errors, those still `queued` only; returns how many. */
  private async failQueued(m: EntityManager, ids: string[], errors: FieldError[]): Promise<number> {
    const [, affected]: [unknown[], number] = await m.query(
      `UPDATE lead_async_job SET state = 'failed', errors = $2, finished_at = now() WHERE id = ANY($1::uuid[]) AND state = 'queued'`,
      [ids, JSON.stringify(errors)],
    );
    return affected;
  }

  /** Forgets finished jobs older than `days` (their leads stay, of course). */
  async deleteFinishedBefore(days: number): Promise<void> {
    await this.ds.query(`DELETE FROM lead_async_job WHERE created_at < now() - make_interval(days => $1) AND finished_at IS NOT NULL`, [days]);
  }
}
