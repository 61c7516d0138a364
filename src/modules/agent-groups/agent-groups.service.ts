import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { ClientAccess } from '../../common/auth-context';
import { DomainError } from '../../common/domain-error';
import { Page } from '../../common/envelope';
import { IdempotentWrites } from '../../common/idempotency/idempotent-writes';
import { AgentGroup, AgentGroupNames, SYSTEM_ACTOR, completeNames, mergeNames, missingIds, normaliseAgentIds } from './domain/agent-group';
import { UsersService } from '../users/users.service';
import { AgentGroupsRepository } from './persistence/agent-groups.repository';
import { AGENT_GROUP_ERRORS } from './domain/agent-groups.errors';
import { OrderAssignmentsService } from '../orders/order-assignments.service';

export interface CreateAgentGroupInput {
  names: AgentGroupNames;
  agentIds?: number[];
}

export interface UpdateAgentGroupInput {
  names?: Partial<AgentGroupNames>;
  agentIds?: number[];
}

@Injectable()
export class AgentGroupsService {
  constructor(
    private readonly ds: DataSource,
    private readonly groups: AgentGroupsRepository,
    private readonly users: UsersService,
    private readonly idempotent: IdempotentWrites,
    private readonly orders: OrderAssignmentsService,
  ) {}

  /** A group `access` reaches; one it does not reach is answered like one that does not exist. */
  async getGroup(access: ClientAccess, id: number): Promise<AgentGroup> {
    const reached = await this.groupsReached(access);
    const group = reached === null || reached.includes(id) ? await this.groups.findById(id) : null;
    if (!group) throw DomainError.notFound('Agent group', id, AGENT_GROUP_ERRORS.NOT_FOUND);
    return group;
  }

  /** A page of the groups `access` reaches; `total` counts only those. */
  async listGroups(access: ClientAccess, filter: { agentId?: number }, offset: number, limit: number): Promise<Page<AgentGroup>> {
    const reached = await this.groupsReached(access);
    return this.groups.listPage(reached === null ? filter : { ...filter, ids: reached }, offset, limit);
  }

  /** The groups `access` reaches: every group (null) for an unrestricted key, else those assigned to its client's orders. */
  private async groupsReached(access: ClientAccess): Promise<number[] | null> {
    return (await this.orders.assignedTo(access))?.agentGroupIds ?? null;
  }

  /** Creates a group with its members in one transaction; unknown agent ids are a 400 naming them. */
  async createGroup(input: CreateAgentGroupInput): Promise<number> {
    return this.idempotent.transaction(
      async (m) => {
        const agentIds = await this.checkedAgentIds(input.agentIds ?? [], m);
        const id = await this.groups.insert(completeNames(input.names), SYSTEM_ACTOR, m);
        await this.groups.replaceMembers(id, agentIds, m);
        return id;
      },
      (id) => ({ id }),
    );
  }

  /** Names merge per language; agentIds, when sent, replaces the membership. */
  async updateGroup(id: number, input: UpdateAgentGroupInput): Promise<void> {
    await this.ds.transaction(async (m) => {
      const current = await this.groups.lockNames(id, m);
      if (current === null) throw DomainError.notFound('Agent group', id, AGENT_GROUP_ERRORS.NOT_FOUND);
      if (input.agentIds !== undefined) {
        await this.groups.replaceMembers(id, await this.checkedAgentIds(input.agentIds, m), m);
      }
      await this.groups.update(id, mergeNames(current, input.names ?? {}), SYSTEM_ACTOR, m);
    });
  }

  private async checkedAgentIds(requested: number[], m: EntityManager): Promise<number[]> {
    const ids = normaliseAgentIds(requested);
    const missing = missingIds(ids, await this.users.lockExisting(ids, m));
    if (missing.length > 0) throw DomainError.invalidField('agentIds', `unknown user ids: ${missing.join(', ')}`, AGENT_GROUP_ERRORS.UNKNOWN_AGENTS);
    return ids;
  }

  /**
   * Which of `ids` exist and `access` reaches (see groupsReached), for other modules' reference checks: a group a client key
   * does not reach is left out exactly like one that does not exist. Inside a transaction, pass its manager.
   */
  async reachedIds(access: ClientAccess, ids: readonly number[], m?: EntityManager): Promise<number[]> {
    if (ids.length === 0) return [];
    const reached = await this.groupsReached(access);
    const within = reached === null ? null : new Set(reached);
    const reachable = within === null ? ids : ids.filter((id) => within.has(id));
    return this.groups.existingIds(reachable, m);
  }
}
