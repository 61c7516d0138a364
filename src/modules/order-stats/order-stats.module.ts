import { Module } from '@nestjs/common';
import { CallsModule } from '../calls/calls.module';
import { LeadsModule } from '../leads/leads.module';
import { OrdersModule } from '../orders/orders.module';
import { OrderStatsV2Controller } from './http/order-stats.v2.controller';
import { OrderStatsService } from './order-stats.service';

/** GET /v2/order/stats/{orderId}/: figures of an order from the orders, leads and calls modules' services. */
@Module({
  imports: [OrdersModule, LeadsModule, CallsModule],
  controllers: [OrderStatsV2Controller],
  providers: [OrderStatsService],
})
export class OrderStatsModule {}
