import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { IdempotencyClaim } from './idempotency-context';

export type BeginOutcome =
  { kind: 'owned' } | { kind: 'replay'; data: unknown; headers: Record<string, string> } | { kind: 'mismatch' } | { kind: 'in_progress' };

/** How long a stored response is replayed. */
const RETENTION = '24 hours';
/**
 * An unfinished record older than this belongs to a request that died: the next retry takes it over. Safe even if the first still
 * runs (creates complete their record in their own transaction, rolled back once the claim is lost; leads are unique by job id),
 * so it only has to outlast a normal request (statements stop at 15 s by default); longer keeps retries after an outage at 409.
 */
const ABANDONED = '20 seconds';

/** Idempotency records live in PostgreSQL so every instance sees the same ones. */
@Injectable()
export class IdempotencyStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Idempotency');
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly ds: DataSource) {}

  onModuleInit(): void {
    this.sweeper = setInterval(() => void this.sweep().catch((e: Error) => this.logger.warn(`sweep: ${e.message}`)), 3_600_000);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  /**
   * Claims the key for this request under the fresh token `owner`, or tells what to do instead.
   * One round trip in the common case. A record whose write is committing is locked by that
   * transaction: this waits for it and then sees it completed.
   */
  async begin(apiKeyId: number, key: string, hash: string, owner: string): Promise<BeginOutcome> {
    const claimed: unknown[] = await this.ds.query(
      `INSERT INTO idempotency_record (api_key_id, key, request_hash, owner) VALUES ($1, $2, $3, $4)
       ON CONFLICT (api_key_id, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, created_at = now(), status_code = NULL,
             response = NULL, response_headers = NULL, completed_at = NULL, owner = EXCLUDED.owner
         WHERE idempotency_record.created_at < now() - interval '${RETENTION}'
            OR (idempotency_record.completed_at IS NULL AND idempotency_record.created_at < now() - interval '${ABANDONED}'
                AND idempotency_record.request_hash = EXCLUDED.request_hash)
       RETURNING 1`,
      [apiKeyId, key, hash, owner],
    );
    if (claimed.length > 0) return { kind: 'owned' };
    return this.peek(apiKeyId, key, hash);
  }

  async peek(apiKeyId: number, key: string, hash: string): Promise<BeginOutcome> {
    const rows: { request_hash: string; response: unknown; response_headers: Record<string, string> | null; completed_at: Date | null }[] = await this.ds.query(
      `SELECT request_hash, response, response_headers, completed_at FROM idempotency_record WHERE api_key_id = $1 AND key = $2`,
      [apiKeyId, key],
    );
    const row = rows[0];
    if (!row) return { kind: 'in_progress' }; // released meanwhile: the caller retries
    if (row.request_hash !== hash) return { kind: 'mismatch' };
    if (!row.completed_at) return { kind: 'in_progress' };
    return { kind: 'replay', data: row.response, headers: row.response_headers ?? {} };
  }

  /**
   * Stores the response inside the write's transaction (see IdempotentWrites), if `claim` still
   * owns the unfinished record; false when it does not (a retry took it over after the
   * abandonment window). The row stays locked until that transaction ends.
   */
  async completeInTransaction(m: EntityManager, claim: IdempotencyClaim, data: unknown): Promise<boolean> {
    return this.saveResponse(m, claim, data, {}, false);
  }

  /**
   * Stores the response once the handler returned, for routes whose write does not complete the
   * record itself (leads: their job id makes a retry find the first lead anyway). `overwrite`
   * replaces what this owner stored in the transaction.
   */
  async completeAfterCommit(claim: IdempotencyClaim, data: unknown, headers: Record<string, string>, overwrite = false): Promise<boolean> {
    return this.saveResponse(this.ds.manager, claim, data, headers, overwrite);
  }

  private async saveResponse(m: EntityManager, claim: IdempotencyClaim, data: unknown, headers: Record<string, string>, overwrite: boolean): Promise<boolean> {
    // TypeORM returns [rows, affectedCount] for UPDATE on PostgreSQL.
    const [, affected]: [unknown[], number] = await m.query(
      `UPDATE idempotency_record SET status_code = 200, response = $4, response_headers = $5, completed_at = now()
       WHERE api_key_id = $1 AND key = $2 AND owner = $3 ${overwrite ? '' : 'AND completed_at IS NULL'}`,
      [claim.apiKeyId, claim.key, claim.owner, JSON.stringify(data ?? []), JSON.stringify(headers)],
    );
    return affected > 0;
  }

  /** A failed request leaves nothing behind (the client may retry with the same key); only its own claim. */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.ds.query(`DELETE FROM idempotency_record WHERE api_key_id = $1 AND key = $2 AND owner = $3 AND completed_at IS NULL`, [
      claim.apiKeyId,
      claim.key,
      claim.owner,
    ]);
  }

  async sweep(): Promise<void> {
    await this.ds.query(`DELETE FROM idempotency_record WHERE created_at < now() - interval '${RETENTION}'`);
  }
}
