import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { AgentGroup, AgentGroupNames } from '../domain/agent-group';
import { AgentGroupEntity, AgentGroupMemberEntity } from './agent-group.entity';
import { insertedId } from '../../../database/insert-result';
import { existingIds } from '../../../database/existing-ids';
import type { Page } from '../../../common/envelope';
import { findPage } from '../../../database/page';

export interface AgentGroupFilter {
  agentId?: number;
  /** Only these groups (what a client key reaches); absent: every group. */
  ids?: readonly number[];
}

@Injectable()
export class AgentGroupsRepository {
  constructor(private readonly ds: DataSource) {}

  private groups(m: EntityManager = this.ds.manager): Repository<AgentGroupEntity> {
    return m.getRepository(AgentGroupEntity);
  }

  private members(m: EntityManager = this.ds.manager): Repository<AgentGroupMemberEntity> {
    return m.getRepository(AgentGroupMemberEntity);
  }

  async findById(id: number): Promise<AgentGroup | null> {
    const group = await this.groups().findOneBy({ id });
    if (!group) return null;
    const members = await this.membersOf([id]);
    return { ...group, agentIds: members.get(id) ?? [] };
  }

  /**
   * One page by id; with `agentId`, only groups that agent belongs to; with `ids`, only those groups.
   * Members of the whole page come in one query.
   */
  async listPage(filter: AgentGroupFilter, offset: number, limit: number): Promise<Page<AgentGroup>> {
    const q = this.groups().createQueryBuilder('g').orderBy('g.id');
    if (filter.ids !== undefined) q.andWhere(filter.ids.length ? 'g.id IN (:...ids)' : '0=1', { ids: filter.ids });
    if (filter.agentId !== undefined) {
      q.innerJoin(AgentGroupMemberEntity, 'f', 'f.group_id = g.id AND f.user_id = :agentId', { agentId: filter.agentId });
    }
    const page = await findPage(q, offset, limit);
    const members = await this.membersOf(page.list.map((g) => g.id));
    return { ...page, list: page.list.map((g) => ({ ...g, agentIds: members.get(g.id) ?? [] })) };
  }

  /** Member ids per group, ascending, for many groups at once. */
  private async membersOf(groupIds: number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    if (groupIds.length === 0) return out;
    const rows = await this.members().find({ where: { groupId: In(groupIds) }, order: { groupId: 'ASC', userId: 'ASC' } });
    for (const r of rows) out.set(r.groupId, [...(out.get(r.groupId) ?? []), r.userId]);
    return out;
  }

  /** The users in any of `groupIds`, each once, ascending. */
  async usersInGroups(groupIds: readonly number[]): Promise<number[]> {
    if (groupIds.length === 0) return [];
    const rows = await this.members().find({ select: { userId: true }, where: { groupId: In([...groupIds]) }, order: { userId: 'ASC' } });
    return [...new Set(rows.map((r) => r.userId))];
  }

  async insert(names: AgentGroupNames, actor: number, m: EntityManager): Promise<number> {
    const result = await this.groups(m).insert({ names, createdBy: actor, updatedBy: actor });
    return insertedId(result);
  }

  /** The group's current names, locking the row for the rest of the transaction; null when no such group. */
  async lockNames(id: number, m: EntityManager): Promise<Partial<AgentGroupNames> | null> {
    const group = await this.groups(m).findOne({ select: { id: true, names: true }, where: { id }, lock: { mode: 'pessimistic_write' } });
    return group?.names ?? null;
  }

  async update(id: number, names: AgentGroupNames, actor: number, m: EntityManager): Promise<void> {
    await this.groups(m).update({ id }, { names, updatedBy: actor });
  }

  async replaceMembers(groupId: number, userIds: number[], m: EntityManager): Promise<void> {
    await this.members(m).delete({ groupId });
    if (userIds.length > 0) await this.members(m).insert(userIds.map((userId) => ({ groupId, userId })));
  }

  /** Which of `ids` exist (reference checks of other modules), on `m` when given. */
  existingIds(ids: readonly number[], m?: EntityManager): Promise<number[]> {
    return existingIds(this.groups(m), ids);
  }
}
