import { ApiProperty } from '@nestjs/swagger';
import { isoDateTime } from '../../../common/dates';
import type { OrderStats } from '../order-stats.service';

const ISO = '2026-03-04T05:06:07+00:00';

export class LeadCategoryCountsView {
  @ApiProperty({ type: 'integer', name: 'in-progress' }) 'in-progress': number;
  @ApiProperty({ type: 'integer' }) qualified: number;
  @ApiProperty({ type: 'integer' }) rejected: number;
  @ApiProperty({ type: 'integer' }) closed: number;
}

export class OrderLeadCountsView {
  @ApiProperty({ type: 'integer', description: 'leads of the order' }) total: number;
  @ApiProperty({ type: LeadCategoryCountsView, description: 'leads per status category' }) byCategory: LeadCategoryCountsView;
}

/** Live figures of an order (extension). */
export class OrderStatsView {
  @ApiProperty({ type: 'integer' }) orderId: number;
  @ApiProperty({ example: ISO, description: 'when the figures were read' }) asOf: string;
  @ApiProperty({ type: OrderLeadCountsView }) leads: OrderLeadCountsView;
  @ApiProperty({
    type: 'integer',
    description:
      'leads whose planned call is due (planningCallDateTime at or before asOf); 0 while the order does not dial (autoDialingEnabled false or the qualified limit reached today)',
  })
  callableNow: number;
  @ApiProperty({ type: 'integer', description: 'leads whose planned call falls in the next hour' }) dueWithinHour: number;
  @ApiProperty({
    type: 'integer',
    description: "calls (dialing attempts) of the order today: the order's day in its defaultTimeZone, else its defaultUtcOffset",
  })
  attemptsToday: number;
  @ApiProperty({ type: 'integer', description: "leads that entered a qualified status today (the order's day)" }) qualifiedToday: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'null = no limit' }) qualifiedLeadsPerDayLimit: number | null;
}

export function presentOrderStats(s: OrderStats) {
  return {
    orderId: s.orderId,
    asOf: isoDateTime(s.asOf),
    leads: { total: s.leads.total, byCategory: { ...s.leads.byCategory } },
    callableNow: s.callableNow,
    dueWithinHour: s.dueWithinHour,
    attemptsToday: s.attemptsToday,
    qualifiedToday: s.qualifiedToday,
    qualifiedLeadsPerDayLimit: s.qualifiedLeadsPerDayLimit,
  };
}
