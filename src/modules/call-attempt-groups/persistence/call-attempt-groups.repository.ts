import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { definedFields } from '../../../common/defined-fields';
import { CallAttemptGroup, CallAttemptGroupFields } from '../domain/call-attempt-group';
import { CallAttemptGroupEntity } from './call-attempt-group.entity';
import { insertedId } from '../../../database/insert-result';
import { existingIds } from '../../../database/existing-ids';
import type { Page } from '../../../common/envelope';
import { findPage } from '../../../database/page';

/** Serialises every change of which group is the default (a transaction-scoped advisory lock). */
const DEFAULT_LOCK_KEY = 1_763_785_001;

@Injectable()
export class CallAttemptGroupsRepository {
  constructor(private readonly ds: DataSource) {}

  private groups(m: EntityManager = this.ds.manager): Repository<CallAttemptGroupEntity> {
    return m.getRepository(CallAttemptGroupEntity);
  }

  findById(id: number): Promise<CallAttemptGroup | null> {
    return this.groups().findOneBy({ id });
  }

  listPage(offset: number, limit: number): Promise<Page<CallAttemptGroup>> {
    return findPage({ repository: this.groups(), find: { order: { id: 'ASC' } } }, offset, limit);
  }

  /**
   * Takes the default-group lock for the rest of the transaction, so two concurrent "make X default" cannot both clear the old
   * default and collide on call_attempt_group_one_default_idx (which keeps "at most one" true regardless). No TypeORM API: plain SQL.
   */
  async lockDefault(m: EntityManager): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock($1)`, [DEFAULT_LOCK_KEY]);
  }

  someGroupIsDefault(m: EntityManager): Promise<boolean> {
    return this.groups(m).existsBy({ isDefault: true });
  }

  /** The group's default flag, locking its row; null when no such group. */
  lockForUpdate(id: number, m: EntityManager): Promise<{ isDefault: boolean } | null> {
    return this.groups(m).findOne({ select: { id: true, isDefault: true }, where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async clearDefaultExcept(id: number | null, m: EntityManager): Promise<void> {
    const q = this.groups(m).createQueryBuilder().update().set({ isDefault: false }).where('is_default');
    if (id !== null) q.andWhere('id <> :id', { id });
    await q.execute();
  }

  async insert(fields: CallAttemptGroupFields & { isDefault: boolean }, m: EntityManager): Promise<number> {
    const result = await this.groups(m).insert({
      title: fields.title,
      intervals: fields.intervals,
      isDefault: fields.isDefault,
      resetAttemptsEnabled: fields.resetAttemptsEnabled,
      repeatLastInterval: fields.repeatLastInterval,
    });
    return insertedId(result);
  }

  async update(id: number, patch: Partial<CallAttemptGroupFields> & { isDefault?: boolean }, m: EntityManager): Promise<void> {
    await this.groups(m).update({ id }, definedFields(patch));
  }

  /** Which of `ids` exist (reference checks of other modules), on `m` when given. */
  existingIds(ids: readonly number[], m?: EntityManager): Promise<number[]> {
    return existingIds(this.groups(m), ids);
  }

  /** The group `id`, or the default group when `id` is null; null when neither exists. */
  findOrDefault(id: number | null, m?: EntityManager): Promise<CallAttemptGroup | null> {
    return this.groups(m).findOneBy(id === null ? { isDefault: true } : { id });
  }
}
