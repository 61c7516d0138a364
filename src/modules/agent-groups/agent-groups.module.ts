import { Module } from '@nestjs/common';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { UsersModule } from '../users/users.module';
import { AgentGroupsService } from './agent-groups.service';
import { AgentGroupsManagementController, AgentGroupsV2Controller } from './http/agent-groups.v2.controller';
import { agentGroupsDemoSeed } from './agent-groups.seed';
import { AgentGroupsRepository } from './persistence/agent-groups.repository';

@Module({
  imports: [UsersModule],
  controllers: [AgentGroupsManagementController, AgentGroupsV2Controller],
  providers: [AgentGroupsRepository, AgentGroupsService],
  exports: [AgentGroupsService],
})
export class AgentGroupsModule {
  constructor(seeder: DemoSeeder) {
    seeder.add(agentGroupsDemoSeed);
  }
}
