import { Injectable } from '@nestjs/common';
import type { ClientAccess } from '../../common/auth-context';
import type { OrderAssignments } from './domain/order-assignments';
import { OrdersRepository } from './persistence/orders.repository';

export type { OrderAssignments };

/**
 * What the users and agent-groups modules read of orders: which of their records a client's orders
 * use. Served apart from OrdersService because OrdersModule imports those modules for its
 * reference checks, and they may not import it back.
 */
@Injectable()
export class OrderAssignmentsService {
  constructor(private readonly repo: OrdersRepository) {}

  /** The users and agent groups assigned to the orders `access` reaches; null when it reaches every order. */
  async assignedTo(access: ClientAccess): Promise<OrderAssignments | null> {
    return access.clientId === null ? null : this.repo.assignmentsOfClient(access.clientId);
  }
}
