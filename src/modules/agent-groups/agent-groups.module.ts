import { Module } from '@nestjs/common';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { AgentGroupsService } from './agent-groups.service';
import { AgentGroupsManagementController, AgentGroupsV2Controller } from './http/agent-groups.v2.controller';
import { agentGroupsDemoSeed } from './agent-groups.seed';
import { AgentGroupsRepository } from './persistence/agent-groups.repository';

@Module({
  controllers: [AgentGroupsManagementController, AgentGroupsV2Controller],
  providers: [AgentGroupsRepository, AgentGroupsService],
  exports: [AgentGroupsService],
})
export class AgentGroupsModule {
  constructor(seeder: DemoSeeder) {
    seeder.add(agentGroupsDemoSeed);
  }
}
