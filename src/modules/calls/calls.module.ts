import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module';
import { UsersModule } from '../users/users.module';
import { SipEndpointsModule } from '../sip-endpoints/sip-endpoints.module';
import { CallAttemptGroupsModule } from '../call-attempt-groups/call-attempt-groups.module';
import { DncModule } from '../dnc/dnc.module';
import { LeadsModule } from '../leads/leads.module';
import { CallsDemoSeed } from './calls.seed';
import { CallsService } from './calls.service';
import { CallStatusesService } from './call-statuses.service';
import { CallStatsService } from './call-stats.service';
import { CallsV2Controller } from './http/calls.v2.controller';
import { CallStatusesV2Controller } from './http/call-statuses.v2.controller';
import { CallCountersCompactor } from './persistence/call-counters.compactor';
import { CallsRepository } from './persistence/calls.repository';
import { CallStatusesRepository } from './persistence/call-statuses.repository';

@Module({
  // Each module answers for its own tables: agents, SIP endpoints, attempt groups, leads (their attempts and next call).
  imports: [OrdersModule, UsersModule, SipEndpointsModule, CallAttemptGroupsModule, LeadsModule, DncModule],
  controllers: [CallsV2Controller, CallStatusesV2Controller],
  providers: [CallsService, CallsRepository, CallStatusesService, CallStatusesRepository, CallCountersCompactor, CallsDemoSeed, CallStatsService],
  exports: [CallsService, CallStatsService],
})
export class CallsModule {}
