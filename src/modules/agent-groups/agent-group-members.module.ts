import { Module } from '@nestjs/common';
import { AgentGroupMembersService } from './agent-group-members.service';
import { AgentGroupsRepository } from './persistence/agent-groups.repository';

/** AgentGroupMembersService for the users module: no imports of its own. */
@Module({
  providers: [AgentGroupsRepository, AgentGroupMembersService],
  exports: [AgentGroupMembersService],
})
export class AgentGroupMembersModule {}
