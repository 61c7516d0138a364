import { Module } from '@nestjs/common';
import { OrderAssignmentsService } from './order-assignments.service';
import { OrdersRepository } from './persistence/orders.repository';

/** OrderAssignmentsService for the modules OrdersModule imports (users, agent groups): no imports of its own. */
@Module({
  providers: [OrdersRepository, OrderAssignmentsService],
  exports: [OrderAssignmentsService],
})
export class OrderAssignmentsModule {}
