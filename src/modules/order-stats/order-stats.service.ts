import { Injectable } from '@nestjs/common';
import type { ClientAccess } from '../../common/auth-context';
import { CallStatsService } from '../calls/call-stats.service';
import { LeadStatsService, OrderLeadStats } from '../leads/lead-stats.service';
import { orderDayBounds, withinDailyLimit } from '../leads/domain/qualified-limit';
import { orderZone } from '../orders/domain/time-zone';
import { OrdersService } from '../orders/orders.service';

export interface OrderStats {
  orderId: number;
  asOf: Date;
  leads: Pick<OrderLeadStats, 'total' | 'byCategory'>;
  callableNow: number;
  dueWithinHour: number;
  attemptsToday: number;
  qualifiedToday: number;
  qualifiedLeadsPerDayLimit: number | null;
}

/**
 * GET /v2/order/stats/{orderId}/: live figures of one order, each from counters or an indexed range, so the cost does not grow with
 * the order. "Today" is the order's day in its default zone; `callableNow` counts leads whose planned call is due while the order
 * dials (0 when autodialing is off or today's qualified limit is reached).
 */
@Injectable()
export class OrderStatsService {
  constructor(
    private readonly orders: OrdersService,
    private readonly leads: LeadStatsService,
    private readonly calls: CallStatsService,
  ) {}

  /** Another client's order answers as a missing one (OrdersService.detail), before any figure is read. */
  async stats(orderId: number, access: ClientAccess, now = new Date()): Promise<OrderStats> {
    const order = await this.orders.detail(orderId, access);
    const today = orderDayBounds(now, orderZone(order));
    const [leads, attemptsToday] = await Promise.all([this.leads.orderLeadStats(orderId, now, today), this.calls.attempts(orderId, today.start, today.end)]);
    const limit = order.qualifiedLeadsPerDayLimit;
    const dialing = order.autoDialingEnabled && withinDailyLimit(leads.qualifiedToday, limit);
    return {
      orderId,
      asOf: now,
      leads: { total: leads.total, byCategory: leads.byCategory },
      callableNow: dialing ? leads.dueNow : 0,
      dueWithinHour: leads.dueWithinHour,
      attemptsToday,
      qualifiedToday: leads.qualifiedToday,
      qualifiedLeadsPerDayLimit: limit,
    };
  }
}
