import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module';
import { CallsDemoSeed } from './calls.seed';
import { CallsService } from './calls.service';
import { CallStatsService } from './call-stats.service';
import { CallsV2Controller } from './http/calls.v2.controller';
import { CallCountersCompactor } from './persistence/call-counters.compactor';
import { CallsRepository } from './persistence/calls.repository';

@Module({
  imports: [OrdersModule],
  controllers: [CallsV2Controller],
  providers: [CallsService, CallsRepository, CallCountersCompactor, CallsDemoSeed, CallStatsService],
  exports: [CallsService, CallStatsService],
})
export class CallsModule {}
