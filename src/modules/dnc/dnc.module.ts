import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module';
import { EventsModule } from '../events/events.module';
import { LeadsModule } from '../leads/leads.module';
import { OrdersModule } from '../orders/orders.module';
import { DncDemoSeed } from './dnc.seed';
import { DncService } from './dnc.service';
import { DncExpirySweeper } from './dnc-expiry-sweeper';
import { DncV2Controller } from './http/dnc.v2.controller';
import { DncRepository } from './persistence/dnc.repository';

/** Do-not-call lists: the global one, a client's, an order's. */
@Module({
  imports: [OrdersModule, ClientsModule, LeadsModule, EventsModule],
  controllers: [DncV2Controller],
  providers: [DncRepository, DncService, DncExpirySweeper, DncDemoSeed],
  exports: [DncService],
})
export class DncModule {}
