import { Module } from '@nestjs/common';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { CallScenariosService } from './call-scenarios.service';
import { CallScenariosManagementController } from './http/call-scenarios.v2.controller';
import { callScenariosDemoSeed } from './call-scenarios.seed';
import { CallScenariosRepository } from './persistence/call-scenarios.repository';

@Module({
  controllers: [CallScenariosManagementController],
  providers: [CallScenariosRepository, CallScenariosService],
  exports: [CallScenariosService],
})
export class CallScenariosModule {
  constructor(seeder: DemoSeeder) {
    seeder.add(callScenariosDemoSeed);
  }
}
