import { Module } from '@nestjs/common';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { UsersManagementController, UsersV2Controller } from './http/users.v2.controller';
import { usersDemoSeed } from './users.seed';
import { UsersRepository } from './persistence/users.repository';
import { UsersService } from './users.service';
import { OrderAssignmentsModule } from '../orders/order-assignments.module';
import { AgentGroupMembersModule } from '../agent-groups/agent-group-members.module';

@Module({
  // What a client key reaches: the users of its orders (asked of orders and agent groups).
  imports: [OrderAssignmentsModule, AgentGroupMembersModule],
  controllers: [UsersV2Controller, UsersManagementController],
  providers: [UsersRepository, UsersService],
  exports: [UsersService],
})
export class UsersModule {
  constructor(seeder: DemoSeeder) {
    seeder.add(usersDemoSeed);
  }
}
