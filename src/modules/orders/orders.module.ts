import { Module } from '@nestjs/common';
import { CustomFieldsModule } from '../custom-fields/custom-fields.module';
import { EventsModule } from '../events/events.module';
import { OrdersV2Controller } from './http/orders.v2.controller';
import { OrdersDemoSeed } from './orders.seed';
import { OrdersService } from './orders.service';
import { OrdersRepository } from './persistence/orders.repository';

/** Orders (call campaigns). Exports OrdersService (getOrderSettings) for leads and calls. */
@Module({
  imports: [CustomFieldsModule, EventsModule],
  controllers: [OrdersV2Controller],
  providers: [OrdersRepository, OrdersService, OrdersDemoSeed],
  exports: [OrdersService],
})
export class OrdersModule {}
