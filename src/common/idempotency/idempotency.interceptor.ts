import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { Observable, catchError, from, mergeMap, of } from 'rxjs';
import { COMMON_ERRORS, DomainError } from '../domain-error';
import type { AuthedRequest } from '../auth-context';
import { canonicalJson } from './canonical-json';
import { ActiveClaim, idempotencyClaims } from './idempotency-context';
import { IdempotencyStore } from './idempotency.store';
import { idempotencyToken, TokenRequest } from './idempotency-token';

/** Response headers that are part of the result and must be replayed with it. */
const REPLAYED_HEADERS = ['x-job-id'];
const WAIT_STEP_MS = 50;
const WAIT_MAX_MS = 10_000;

/**
 * `Idempotency-Key` (1..255 chars) on creating POSTs: a retry with the same key, API key and body gets the stored response, another
 * body a 409, and one arriving while the first runs waits for its result (bounded). Create use cases complete the claim in their
 * own transaction (IdempotentWrites); the completion here covers the routes that do not (leads and calls: their own unique keys).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(private readonly store: IdempotencyStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const header = req.headers['idempotency-key'];
    if (header === undefined) return next.handle();
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || key.length > 255) throw DomainError.invalidField('Idempotency-Key', 'must be 1 to 255 characters');
    const apiKeyId = req.apiKey!.id;
    const route = `${req.method} ${req.path.replace(/\/+$/, '')}`;
    const hash = createHash('sha256')
      .update(`${route}\n${canonicalJson(req.body ?? null)}`)
      .digest('hex');
    (req as AuthedRequest & TokenRequest).idempotencyToken = idempotencyToken(apiKeyId, key, hash);

    const claim: ActiveClaim = { apiKeyId, key, owner: randomUUID() };
    return from(this.claim(claim, hash)).pipe(
      mergeMap((outcome) => {
        if (outcome.kind === 'replay') {
          for (const [k, v] of Object.entries(outcome.headers)) res.setHeader(k, v);
          res.setHeader('Idempotent-Replayed', 'true');
          return of(outcome.data);
        }
        return idempotencyClaims
          .run(claim, () => next.handle())
          .pipe(
            mergeMap(async (data: unknown) => {
              await this.completeAfterHandler(claim, route, data, res);
              return data;
            }),
            catchError(async (err: unknown) => {
              await this.store.release(claim).catch(() => undefined);
              throw err;
            }),
          );
      }),
    );
  }

  /** Stores the response unless the write's transaction already did (then only checks they agree). */
  private async completeAfterHandler(claim: ActiveClaim, route: string, data: unknown, res: Response): Promise<void> {
    const headers: Record<string, string> = {};
    for (const h of REPLAYED_HEADERS) {
      const v = res.getHeader(h);
      if (v !== undefined) headers[h] = String(v);
    }
    const stored = claim.storedInTransaction;
    if (!stored) {
      await this.store.completeAfterCommit(claim, data, headers);
      return;
    }
    if (Object.keys(headers).length === 0 && canonicalJson(stored.data ?? []) === canonicalJson(data ?? [])) return;
    // A use case whose stored response is not what its controller sends: replay what was sent.
    this.logger.error(`${route}: the response stored in the transaction differs from the one sent; storing the one sent`);
    await this.store.completeAfterCommit(claim, data, headers, true);
  }

  private async claim(claim: ActiveClaim, hash: string) {
    const deadline = Date.now() + WAIT_MAX_MS;
    for (;;) {
      const outcome = await this.store.begin(claim.apiKeyId, claim.key, hash, claim.owner);
      if (outcome.kind === 'mismatch') {
        throw DomainError.conflict(COMMON_ERRORS.IDEMPOTENCY_KEY_REUSED, 'Idempotency-Key was already used with a different request body');
      }
      if (outcome.kind !== 'in_progress') return outcome;
      if (Date.now() > deadline) {
        throw DomainError.conflict(COMMON_ERRORS.IDEMPOTENCY_IN_PROGRESS, 'A request with this Idempotency-Key is still in progress; retry later');
      }
      await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
    }
  }
}
