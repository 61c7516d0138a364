import { Module } from '@nestjs/common';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { CallAttemptGroupsService } from './call-attempt-groups.service';
import { CallAttemptGroupsManagementController, CallAttemptGroupsV2Controller } from './http/call-attempt-groups.v2.controller';
import { callAttemptGroupsDemoSeed } from './call-attempt-groups.seed';
import { CallAttemptGroupsRepository } from './persistence/call-attempt-groups.repository';

@Module({
  controllers: [CallAttemptGroupsV2Controller, CallAttemptGroupsManagementController],
  providers: [CallAttemptGroupsRepository, CallAttemptGroupsService],
  exports: [CallAttemptGroupsService],
})
export class CallAttemptGroupsModule {
  constructor(seeder: DemoSeeder) {
    seeder.add(callAttemptGroupsDemoSeed);
  }
}
