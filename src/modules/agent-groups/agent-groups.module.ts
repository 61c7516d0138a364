import { Module } from '@nestjs/common';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { UsersModule } from '../users/users.module';
import { AgentGroupsService } from './agent-groups.service';
import { AgentGroupsManagementController, AgentGroupsV2Controller } from './http/agent-groups.v2.controller';
import { agentGroupsDemoSeed } from './agent-groups.seed';
import { AgentGroupsRepository } from './persistence/agent-groups.repository';
import { OrderAssignmentsModule } from '../orders/order-assignments.module';

@Module({
  // Users: member checks; order assignments: the groups a client key reaches.
  imports: [UsersModule, OrderAssignmentsModule],
  controllers: [AgentGroupsManagementController, AgentGroupsV2Controller],
  providers: [AgentGroupsRepository, AgentGroupsService],
  exports: [AgentGroupsService],
})
export class AgentGroupsModule {
  constructor(seeder: DemoSeeder) {
    seeder.add(agentGroupsDemoSeed);
  }
}
