import { Module } from '@nestjs/common';
import { CustomFieldsModule } from '../custom-fields/custom-fields.module';
import { EventsModule } from '../events/events.module';
import { UsersModule } from '../users/users.module';
import { AgentGroupsModule } from '../agent-groups/agent-groups.module';
import { SipEndpointsModule } from '../sip-endpoints/sip-endpoints.module';
import { CallAttemptGroupsModule } from '../call-attempt-groups/call-attempt-groups.module';
import { CallScenariosModule } from '../call-scenarios/call-scenarios.module';
import { ClientsModule } from '../clients/clients.module';
import { CallStatusesModule } from '../call-statuses/call-statuses.module';
import { OrdersV2Controller } from './http/orders.v2.controller';
import { OrdersDemoSeed } from './orders.seed';
import { OrdersService } from './orders.service';
import { OrdersRepository } from './persistence/orders.repository';

/** Orders (call campaigns). Exports OrdersService (getOrderSettings) for leads and calls. */
@Module({
  // References are checked by the modules that own them (users, agent groups, SIP endpoints, attempt groups, scenarios, clients,
  // the call statuses of redial rules).
  imports: [
    CustomFieldsModule,
    EventsModule,
    UsersModule,
    AgentGroupsModule,
    SipEndpointsModule,
    CallAttemptGroupsModule,
    CallScenariosModule,
    ClientsModule,
    CallStatusesModule,
  ],
  controllers: [OrdersV2Controller],
  providers: [OrdersRepository, OrdersService, OrdersDemoSeed],
  exports: [OrdersService],
})
export class OrdersModule {}
