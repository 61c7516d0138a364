import { Injectable } from '@nestjs/common';
import { AgentGroupsRepository } from './persistence/agent-groups.repository';

/**
 * Group membership for the users module, served apart from AgentGroupsService because
 * AgentGroupsModule imports the users module (its member checks) and may not be imported back.
 */
@Injectable()
export class AgentGroupMembersService {
  constructor(private readonly groups: AgentGroupsRepository) {}

  /** The users in any of `groupIds`, each once, ascending. */
  usersInGroups(groupIds: readonly number[]): Promise<number[]> {
    return this.groups.usersInGroups(groupIds);
  }
}
