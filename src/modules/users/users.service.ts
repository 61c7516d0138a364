import { Injectable } from '@nestjs/common';
import type { ClientAccess } from '../../common/auth-context';
import { DomainError } from '../../common/domain-error';
import { Page } from '../../common/envelope';
import { IdempotentWrites } from '../../common/idempotency/idempotent-writes';
import { isUniqueViolation } from '../../common/pg-errors';
import { ContactFilter, User, UserContact, UserInput, toUserFields } from './domain/user';
import { USER_EMAIL_INDEX, UserFilter, UsersRepository } from './persistence/users.repository';
import { USER_ERRORS } from './domain/users.errors';
import type { EntityManager } from 'typeorm';
import { OrderAssignmentsService } from '../orders/order-assignments.service';
import { AgentGroupMembersService } from '../agent-groups/agent-group-members.service';

const emailTaken = (email: string) => DomainError.conflict(USER_ERRORS.EMAIL_TAKEN, `A user with e-mail ${email} already exists`);

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly idempotent: IdempotentWrites,
    private readonly orders: OrderAssignmentsService,
    private readonly groupMembers: AgentGroupMembersService,
  ) {}

  /** A user `access` reaches; one it does not reach is answered like one that does not exist. */
  async getUser(access: ClientAccess, id: number): Promise<User> {
    const user = (await this.reaches(access, id)) ? await this.users.findById(id) : null;
    if (!user) throw DomainError.notFound('User', id, USER_ERRORS.NOT_FOUND);
    return user;
  }

  /** A page of the users `access` reaches; `total` counts only those. */
  async listUsers(access: ClientAccess, filter: Omit<UserFilter, 'ids'>, offset: number, limit: number): Promise<Page<User>> {
    const reached = await this.usersReached(access);
    return this.users.listPage(reached === null ? filter : { ...filter, ids: reached }, offset, limit);
  }

  /** Whether `access` reaches user `id` (which may not exist). */
  async reaches(access: ClientAccess, id: number): Promise<boolean> {
    const reached = await this.usersReached(access);
    return reached === null || reached.includes(id);
  }

  /**
   * The users `access` reaches, ascending: every user (null) for an unrestricted key; else those
   * assigned to its client's orders, by name or as members of an assigned agent group.
   */
  private async usersReached(access: ClientAccess): Promise<number[] | null> {
    const assigned = await this.orders.assignedTo(access);
    if (assigned === null) return null;
    const members = await this.groupMembers.usersInGroups(assigned.agentGroupIds);
    return [...new Set([...assigned.agentUserIds, ...members])].sort((a, b) => a - b);
  }

  /** Creates a user; the e-mail must be free (case-insensitively), else 409. */
  async createUser(input: UserInput & { email: string }): Promise<number> {
    return this.idempotent.transaction(
      async (m) => {
        const id = await this.users.insert({ ...toUserFields(input), email: input.email }, m);
        if (id === null) throw emailTaken(input.email);
        return id;
      },
      (id) => ({ id }),
    );
  }

  async updateUser(id: number, input: UserInput): Promise<void> {
    if (input.email !== undefined && (await this.users.emailTaken(input.email, id))) {
      // A missing user is a 404 before the conflict its body would make.
      if ((await this.users.existingIds([id])).length === 0) throw DomainError.notFound('User', id, USER_ERRORS.NOT_FOUND);
      throw emailTaken(input.email);
    }
    let found: boolean;
    try {
      found = await this.users.update(id, toUserFields(input));
    } catch (err) {
      // A concurrent update took the address between the check and the write.
      if (isUniqueViolation(err, USER_EMAIL_INDEX)) throw emailTaken(String(input.email));
      throw err;
    }
    if (!found) throw DomainError.notFound('User', id, USER_ERRORS.NOT_FOUND);
  }

  /** Which of `ids` exist, for other modules' reference checks; inside a transaction, pass its manager. */
  existingIds(ids: readonly number[], m?: EntityManager): Promise<number[]> {
    return this.users.existingIds(ids, m);
  }

  /**
   * Which of `ids` exist and `access` reaches (see usersReached), for other modules' reference checks: a user a client key
   * does not reach is left out exactly like one that does not exist. Inside a transaction, pass its manager.
   */
  async reachedIds(access: ClientAccess, ids: readonly number[], m?: EntityManager): Promise<number[]> {
    if (ids.length === 0) return [];
    const reached = await this.usersReached(access);
    const within = reached === null ? null : new Set(reached);
    const reachable = within === null ? ids : ids.filter((id) => within.has(id));
    return this.users.existingIds(reachable, m);
  }

  /**
   * Which of `ids` exist, each locked against deletion until `m`'s transaction ends: for another
   * module's rows that are about to reference them.
   */
  lockExisting(ids: readonly number[], m: EntityManager): Promise<number[]> {
    return this.users.lockExisting(ids, m);
  }

  /** Contacts of the users `filter` selects (all users when empty), by id, locked like `lockExisting`. */
  lockContacts(filter: ContactFilter, m: EntityManager): Promise<UserContact[]> {
    return this.users.lockContacts(filter, m);
  }
}
