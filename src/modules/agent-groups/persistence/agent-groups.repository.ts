import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AgentGroup, AgentGroupNames } from '../domain/agent-group';

type GroupRow = Omit<AgentGroup, 'agentIds'>;

const COLUMNS = `g.id, g.names, g.created_by AS "createdBy", g.updated_by AS "updatedBy", g.created_at AS "createdAt", g.updated_at AS "updatedAt"`;

@Injectable()
export class AgentGroupsRepository {
  constructor(private readonly ds: DataSource) {}

  async findById(id: number): Promise<AgentGroup | null> {
    const rows: AgentGroup[] = await this.ds.query(
      `SELECT ${COLUMNS}, ARRAY(SELECT m.user_id FROM agent_group_member m WHERE m.group_id = g.id ORDER BY m.user_id) AS "agentIds"
       FROM agent_group g WHERE g.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** One page by id; with `agentId`, only groups that agent belongs to. Members of the whole page come in one query. */
  async listPage(filter: { agentId?: number }, offset: number, limit: number): Promise<{ rows: AgentGroup[]; total: number }> {
    const byAgent = filter.agentId !== undefined;
    const [groups, count] = await Promise.all([
      (byAgent
        ? this.ds.query(
            `SELECT ${COLUMNS} FROM agent_group g JOIN agent_group_member f ON f.group_id = g.id AND f.user_id = $1
             ORDER BY g.id OFFSET $2 LIMIT $3`,
            [filter.agentId, offset, limit],
          )
        : this.ds.query(`SELECT ${COLUMNS} FROM agent_group g ORDER BY g.id OFFSET $1 LIMIT $2`, [offset, limit])) as Promise<GroupRow[]>,
      // (group, user) is the member table's key, so counting an agent's memberships counts its groups.
      (byAgent
        ? this.ds.query(`SELECT count(*)::int AS n FROM agent_group_member WHERE user_id = $1`, [filter.agentId])
        : this.ds.query(`SELECT count(*)::int AS n FROM agent_group`)) as Promise<{ n: number }[]>,
    ]);
    const members = await this.membersOf(groups.map((g) => g.id));
    return { rows: groups.map((g) => ({ ...g, agentIds: members.get(g.id) ?? [] })), total: count[0].n };
  }

  /** Member ids per group, ascending, for many groups at once. */
  private async membersOf(groupIds: number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    if (groupIds.length === 0) return out;
    const rows: { groupId: number; agentIds: number[] }[] = await this.ds.query(
      `SELECT group_id AS "groupId", array_agg(user_id ORDER BY user_id) AS "agentIds"
       FROM agent_group_member WHERE group_id = ANY($1) GROUP BY group_id`,
      [groupIds],
    );
    for (const r of rows) out.set(r.groupId, r.agentIds);
    return out;
  }

  /** Which of these user ids exist; locks them against deletion until the transaction ends. */
  async existingUserIds(ids: number[], m: EntityManager): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows: { id: number }[] = await m.query(`SELECT id FROM app_user WHERE id = ANY($1) FOR KEY SHARE`, [ids]);
    return rows.map((r) => r.id);
  }

  async insert(names: AgentGroupNames, actor: number, m: EntityManager): Promise<number> {
    const rows: { id: number }[] = await m.query(
      `INSERT INTO agent_group (names, created_by, updated_by) VALUES ($1::jsonb, $2, $2) RETURNING id`,
      [JSON.stringify(names), actor],
    );
    return rows[0].id;
  }

  /** The group's current names, locking the row for the rest of the transaction; null when no such group. */
  async lockNames(id: number, m: EntityManager): Promise<Partial<AgentGroupNames> | null> {
    const rows: { names: Partial<AgentGroupNames> }[] = await m.query(`SELECT names FROM agent_group WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0]?.names ?? null;
  }

  async update(id: number, names: AgentGroupNames, actor: number, m: EntityManager): Promise<void> {
    await m.query(`UPDATE agent_group SET names = $2::jsonb, updated_by = $3, updated_at = now() WHERE id = $1`, [id, JSON.stringify(names), actor]);
  }

  async replaceMembers(groupId: number, userIds: number[], m: EntityManager): Promise<void> {
    await m.query(`DELETE FROM agent_group_member WHERE group_id = $1`, [groupId]);
    if (userIds.length > 0) {
      await m.query(`INSERT INTO agent_group_member (group_id, user_id) SELECT $1, unnest($2::int[])`, [groupId, userIds]);
    }
  }
}
