import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ClientAccess } from '../../common/auth-context';
import { DomainError } from '../../common/domain-error';
import { OrdersService } from '../orders/orders.service';
import { Callability, explainCallable } from './domain/callable';
import { Lead } from './domain/lead';
import { orderDayBounds } from './domain/qualified-limit';
import { orderZone, planningZone, zoneOf } from '../orders/domain/time-zone';
import { LeadsRepository } from './persistence/leads.repository';
import { holdAt } from '../dialing/domain/dialing-decision';
import { storedHold } from './domain/lead';
import type { Zone } from 'luxon';

export interface LeadCallability extends Callability {
  at: Date;
  lead: Lead;
  /** The lead's own zone (IANA, or its fixed offset): localTime and utcOffset are read in it. */
  zone: Zone;
}

/**
 * GET /v2/lead/callable/{leadId}/: the lead's stored dialing decision, its order's settings and today's qualified count,
 * explained by the pure rule explainCallable (domain/callable.ts). Reads only; decides nothing again.
 */
@Injectable()
export class LeadCallableService {
  constructor(
    private readonly ds: DataSource,
    private readonly repo: LeadsRepository,
    private readonly orders: OrdersService,
  ) {}

  /** A lead `access` does not reach is a 404, as one that does not exist. */
  async callable(leadId: number, access: ClientAccess, now = new Date()): Promise<LeadCallability> {
    const lead = await this.repo.findById(leadId, access);
    if (!lead) throw DomainError.notFound('Lead', leadId);
    const order = await this.orders.detail(lead.orderId);
    const settings = { defaultTimeZone: order.defaultTimeZone, defaultUtcOffset: order.defaultUtcOffset, ignoreLeadTimezone: order.ignoreLeadTimezone };
    const ownZone = zoneOf(lead.timeZone, lead.utcOffset);
    const limit = order.qualifiedLeadsPerDayLimit;
    let qualifiedToday = 0;
    if (limit !== null) {
      const day = orderDayBounds(now, orderZone(settings));
      qualifiedToday = await this.repo.countQualified(this.ds.manager, order.id, day.start, day.end);
    }
    const result = explainCallable({
      now,
      zone: planningZone(settings, { timeZone: lead.timeZone ?? null, utcOffset: lead.utcOffset }),
      orderZone: orderZone(settings),
      schedule: order.callSchedule,
      holidays: order.callHolidayOverrides,
      planningCallAt: lead.planningCallAt,
      autoDialingEnabled: order.autoDialingEnabled,
      qualifiedToday,
      qualifiedLeadsPerDayLimit: limit,
      hold: holdAt(storedHold(lead), lead.dailyCapUntil, now),
    });
    return { ...result, at: now, lead, zone: ownZone };
  }
}
