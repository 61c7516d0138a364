import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Cache } from '../../common/cache';
import { DomainError } from '../../common/domain-error';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { Page } from '../../common/envelope';
import { IdempotentWrites } from '../../common/idempotency/idempotent-writes';
import { CallAttemptGroup, CallAttemptGroupFields, defaultChangeOnUpdate, isDefaultOnCreate } from './domain/call-attempt-group';
import { CallAttemptGroupsRepository } from './persistence/call-attempt-groups.repository';
import { CALL_ATTEMPT_GROUP_ERRORS } from './domain/call-attempt-groups.errors';

export type CallAttemptGroupInput = Partial<CallAttemptGroupFields> & { isDefault?: boolean };

/**
 * The call attempt groups: managed through their endpoints, read on every recorded call through a per-instance cache of
 * REFERENCE_CACHE_TTL_MS (as the call statuses); this instance forgets the cache at once when it writes a group.
 */
@Injectable()
export class CallAttemptGroupsService {
  /** groupOrDefault's answers by group id (`default`: the default group). */
  private readonly cache: Cache<number | 'default', { group: CallAttemptGroup | null }>;

  constructor(
    private readonly ds: DataSource,
    private readonly groups: CallAttemptGroupsRepository,
    private readonly idempotent: IdempotentWrites,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'referenceCacheTtlMs'>,
  ) {
    this.cache = new Cache({ ttlMs: config.referenceCacheTtlMs, max: 1000 });
  }

  async getGroup(id: number): Promise<CallAttemptGroup> {
    const group = await this.groups.findById(id);
    if (!group) throw DomainError.notFound('Call attempt group', id, CALL_ATTEMPT_GROUP_ERRORS.NOT_FOUND);
    return group;
  }

  listGroups(offset: number, limit: number): Promise<Page<CallAttemptGroup>> {
    return this.groups.listPage(offset, limit);
  }

  /** The first group (any group created while none is default) becomes the default; isDefault: true takes it over. */
  async createGroup(input: CallAttemptGroupInput & Pick<CallAttemptGroupFields, 'title' | 'intervals'>): Promise<number> {
    // Forgotten after the write too: a call recorded meanwhile may have cached the group as it was.
    this.cache.clear();
    return this.idempotent
      .transaction(
        async (m) => {
          await this.groups.lockDefault(m);
          const isDefault = isDefaultOnCreate(input.isDefault, await this.groups.someGroupIsDefault(m));
          if (isDefault) await this.groups.clearDefaultExcept(null, m);
          return this.groups.insert(
            {
              title: input.title,
              intervals: input.intervals,
              isDefault,
              resetAttemptsEnabled: input.resetAttemptsEnabled ?? false,
              repeatLastInterval: input.repeatLastInterval ?? false,
            },
            m,
          );
        },
        (id) => ({ id }),
      )
      .finally(() => this.cache.clear());
  }

  /** Changes the given fields; isDefault: true moves the default here in the same transaction. */
  async updateGroup(id: number, input: CallAttemptGroupInput): Promise<void> {
    this.cache.clear();
    await this.ds
      .transaction(async (m) => {
        await this.groups.lockDefault(m);
        const current = await this.groups.lockForUpdate(id, m);
        if (!current) throw DomainError.notFound('Call attempt group', id, CALL_ATTEMPT_GROUP_ERRORS.NOT_FOUND);
        const change = defaultChangeOnUpdate(input.isDefault, current.isDefault);
        if (change.kind === 'rejected') throw DomainError.invalidField('isDefault', change.message, CALL_ATTEMPT_GROUP_ERRORS.DEFAULT_REQUIRED);
        if (change.kind === 'make-default') await this.groups.clearDefaultExcept(id, m);
        await this.groups.update(
          id,
          {
            title: input.title,
            intervals: input.intervals,
            resetAttemptsEnabled: input.resetAttemptsEnabled,
            repeatLastInterval: input.repeatLastInterval,
            isDefault: change.kind === 'make-default' ? true : undefined,
          },
          m,
        );
      })
      .finally(() => this.cache.clear());
  }

  /** Which of `ids` exist, for other modules' reference checks; inside a transaction, pass its manager. */
  existingIds(ids: readonly number[], m?: EntityManager): Promise<number[]> {
    return this.groups.existingIds(ids, m);
  }

  /**
   * The group a call is planned by: the order's (`id`), or the default one when the order names none; from the cache, else read on
   * `m`'s connection when given (a transaction must not wait for a second connection of the pool).
   */
  async groupOrDefault(id: number | null, m?: EntityManager): Promise<CallAttemptGroup | null> {
    const key = id ?? 'default';
    const hit = this.cache.get(key);
    if (hit) return hit.group;
    const group = await this.groups.findOrDefault(id, m);
    this.cache.set(key, { group });
    return group;
  }
}
