import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module';
import { UsersModule } from '../users/users.module';
import { SipEndpointsModule } from '../sip-endpoints/sip-endpoints.module';
import { CallAttemptGroupsModule } from '../call-attempt-groups/call-attempt-groups.module';
import { DialerModule } from '../dialer/dialer.module';
import { DncModule } from '../dnc/dnc.module';
import { CallStatusesModule } from '../call-statuses/call-statuses.module';
import { LeadsModule } from '../leads/leads.module';
import { CallsDemoSeed } from './calls.seed';
import { CallsService } from './calls.service';
import { CallBatchService } from './call-batch.service';
import { CallStatsService } from './call-stats.service';
import { CallsV2Controller } from './http/calls.v2.controller';
import { CallCountersCompactor } from './persistence/call-counters.compactor';
import { CallsRepository } from './persistence/calls.repository';

@Module({
  // Each module answers for its own tables: agents, SIP endpoints, attempt groups, leads (their attempts and next call), statuses.
  imports: [OrdersModule, UsersModule, SipEndpointsModule, CallAttemptGroupsModule, LeadsModule, DncModule, CallStatusesModule, DialerModule],
  controllers: [CallsV2Controller],
  providers: [CallsService, CallBatchService, CallsRepository, CallCountersCompactor, CallsDemoSeed, CallStatsService],
  exports: [CallsService, CallStatsService],
})
export class CallsModule {}
