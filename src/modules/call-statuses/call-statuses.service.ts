import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Cache } from '../../common/cache';
import { DomainError } from '../../common/domain-error';
import { IdempotentWrites } from '../../common/idempotency/idempotent-writes';
import { isUniqueViolation } from '../../common/pg-errors';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { NO_REDIAL_RULE } from '../dialing/domain/redial-rule';
import { CALL_ERRORS } from '../calls/domain/calls.errors';
import type { CallStatus } from './domain/call-status';
import { CallStatusChanges, CallStatusesRepository } from './persistence/call-statuses.repository';

/**
 * The call status catalogue: created by migration, managed through the management endpoints
 * (scope admin), read on every call the platform reports through a per-instance cache of
 * REFERENCE_CACHE_TTL_MS; this instance forgets the cache at once when it changes a status.
 */
@Injectable()
export class CallStatusesService {
  /** One entry: the whole catalogue. */
  private readonly cache: Cache<'call', CallStatus[]>;

  constructor(
    private readonly repo: CallStatusesRepository,
    private readonly idempotent: IdempotentWrites,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'referenceCacheTtlMs'>,
  ) {
    this.cache = new Cache({ ttlMs: config.referenceCacheTtlMs, max: 1 });
  }

  callStatuses(): Promise<CallStatus[]> {
    return this.repo.list();
  }

  async callStatus(id: number): Promise<CallStatus> {
    const found = await this.repo.findById(id);
    if (!found) throw DomainError.notFound('Call status', id);
    return found;
  }

  /**
   * A call status for the call path, null when there is none: from the cached catalogue, read
   * again (on `m`'s connection) when the id is not in it, so a status just made elsewhere is seen.
   */
  async findCallStatus(id: number, m?: EntityManager): Promise<CallStatus | null> {
    const cached = (await this.cache.getOrLoad('call', () => this.repo.list(m)))!.find((s) => s.id === id);
    if (cached) return cached;
    const fresh = await this.repo.list(m);
    this.cache.set('call', fresh);
    return fresh.find((s) => s.id === id) ?? null;
  }

  /** Which of `ids` are statuses of the catalogue (one query; none for no ids). */
  existingIds(ids: readonly number[], m?: EntityManager): Promise<number[]> {
    return this.repo.existingIds(ids, m);
  }

  async createCallStatus(
    input: Required<Pick<CallStatusChanges, 'code' | 'title' | 'category'>> & Pick<CallStatusChanges, 'isCallback' | 'isOptOut' | 'redial'>,
  ): Promise<number> {
    return this.writing(() =>
      this.idempotent.transaction(
        (m) =>
          this.repo.insert({ ...input, isCallback: input.isCallback ?? false, isOptOut: input.isOptOut ?? false, redial: input.redial ?? NO_REDIAL_RULE }, m),
        (id) => ({ id }),
      ),
    );
  }

  async updateCallStatus(id: number, changes: CallStatusChanges): Promise<void> {
    const found = await this.writing(() => this.repo.update(id, changes));
    if (!found) throw DomainError.notFound('Call status', id);
  }

  /** A taken code is a 409; the cache is dropped whatever happened. */
  private async writing<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err, 'call_status_code_idx')) {
        throw DomainError.conflict(CALL_ERRORS.STATUS_CODE_TAKEN, 'Another status of this catalogue already has this code');
      }
      throw err;
    } finally {
      this.cache.clear();
    }
  }
}
