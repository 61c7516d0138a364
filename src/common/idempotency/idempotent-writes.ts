import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { COMMON_ERRORS, DomainError } from '../domain-error';
import { idempotencyClaims } from './idempotency-context';
import { IdempotencyStore } from './idempotency.store';

/**
 * The transaction of a create behind @Idempotent(): with `Idempotency-Key`, the record is completed in the same transaction as
 * the write, so the resource and its stored response commit together and no failure between them lets a retry create it twice.
 * Without a key (or outside a request) it is a plain `DataSource.transaction`.
 */
@Injectable()
export class IdempotentWrites {
  constructor(
    private readonly ds: DataSource,
    private readonly store: IdempotencyStore,
  ) {}

  /**
   * `response(result)` must be exactly the `data` the route's controller returns for `result`
   * (IdempotencyInterceptor compares the two and logs a mismatch). Routes completing here replay
   * no response headers.
   */
  async transaction<T>(work: (m: EntityManager) => Promise<T>, response: (result: T) => unknown): Promise<T> {
    const claim = idempotencyClaims.getStore();
    if (!claim || claim.storedInTransaction) return this.ds.transaction(work);
    let data: unknown;
    const result = await this.ds.transaction(async (m) => {
      const value = await work(m);
      data = response(value);
      // Another request took the record over (this one outlived the abandonment window): roll back, it creates instead.
      if (!(await this.store.completeInTransaction(m, claim, data))) {
        throw DomainError.conflict(COMMON_ERRORS.IDEMPOTENCY_IN_PROGRESS, 'Another request with this Idempotency-Key took over; retry to get its result');
      }
      return value;
    });
    claim.storedInTransaction = { data };
    return result;
  }
}
