import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { definedFields } from '../../../common/defined-fields';
import { AccessGroup, ContactFilter, User, UserContact, UserFields } from '../domain/user';
import { UserEntity } from './user.entity';
import { returnedId } from '../../../database/insert-result';
import { existingIds } from '../../../database/existing-ids';
import type { Page } from '../../../common/envelope';
import { findPage } from '../../../database/page';

export interface UserFilter {
  accessGroup?: AccessGroup;
  isActive?: boolean;
  /** Only these users (what a client key reaches); absent: every user. */
  ids?: readonly number[];
}

const CONTACT_COLUMNS = {
  id: true,
  email: true,
  isActive: true,
  emailNotificationsEnabled: true,
  emailNotificationsPriority: true,
  telegramChatId: true,
  telegramNotificationsEnabled: true,
  telegramNotificationsPriority: true,
} as const;

/** The unique index that makes e-mails unique regardless of case. */
export const USER_EMAIL_INDEX = 'app_user_email_idx';

@Injectable()
export class UsersRepository {
  constructor(private readonly ds: DataSource) {}

  private users(m: EntityManager = this.ds.manager): Repository<UserEntity> {
    return m.getRepository(UserEntity);
  }

  findById(id: number): Promise<User | null> {
    return this.users().findOneBy({ id });
  }

  listPage(filter: UserFilter, offset: number, limit: number): Promise<Page<User>> {
    const { ids, ...fields } = filter;
    const where = { ...definedFields(fields), ...(ids ? { id: In([...ids]) } : {}) };
    return findPage({ repository: this.users(), find: { where, order: { id: 'ASC' } } }, offset, limit);
  }

  /** Inserts a user; null when the e-mail (case-insensitively, USER_EMAIL_INDEX) is taken. */
  async insert(fields: Partial<UserFields> & { email: string }, m: EntityManager = this.ds.manager): Promise<number | null> {
    const result = await this.users(m).createQueryBuilder().insert().values(fields).orIgnore().returning(['id']).updateEntity(false).execute();
    return returnedId(result);
  }

  /** Whether another user than `exceptId` has this e-mail (case-insensitively). */
  emailTaken(email: string, exceptId: number): Promise<boolean> {
    return this.users().createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).andWhere('u.id <> :exceptId', { exceptId }).getExists();
  }

  /** Changes the given fields (and updated_at); false when no such user. A taken e-mail raises a unique violation of USER_EMAIL_INDEX. */
  async update(id: number, patch: Partial<UserFields>): Promise<boolean> {
    const result = await this.users().update({ id }, definedFields(patch));
    return (result.affected ?? 0) > 0;
  }

  /** Which of `ids` exist, locked against deletion until `m`'s transaction ends (FOR KEY SHARE). */
  async lockExisting(ids: readonly number[], m: EntityManager): Promise<number[]> {
    if (ids.length === 0) return [];
    const users = await this.users(m).find({ select: { id: true }, where: { id: In([...ids]) }, lock: { mode: 'for_key_share' } });
    return users.map((u) => u.id);
  }

  /** The contacts of the users `filter` selects, by id, locked against deletion until `m`'s transaction ends. */
  lockContacts(filter: ContactFilter, m: EntityManager): Promise<UserContact[]> {
    return this.users(m).find({ select: CONTACT_COLUMNS, where: definedFields(filter), order: { id: 'ASC' }, lock: { mode: 'for_key_share' } });
  }

  /** Which of `ids` exist (reference checks of other modules), on `m` when given. */
  existingIds(ids: readonly number[], m?: EntityManager): Promise<number[]> {
    return existingIds(this.users(m), ids);
  }
}
