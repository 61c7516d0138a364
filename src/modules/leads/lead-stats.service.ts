import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LEAD_STATUS_CATEGORIES, LeadStatusCategory } from './domain/lead-status';
import { StatusCataloguesService } from './status-catalogues.service';
import { LEAD_COUNTERS } from './persistence/lead-counters';
import { LEAD_PLANNING_COUNTERS } from './persistence/lead-planning-counters';
import { LeadsRepository } from './persistence/leads.repository';

export interface OrderLeadStats {
  total: number;
  byCategory: Record<LeadStatusCategory, number>;
  /** Leads whose planned call is at or before `now`. */
  dueNow: number;
  /** Leads whose planned call is after `now` and at most an hour later. */
  dueWithinHour: number;
  qualifiedToday: number;
}

const HOUR_MS = 3_600_000;

/**
 * Lead figures of one order for the order stats, each from counters or one indexed range, never by reading the order's leads:
 * totals per status category (lead counters), planned calls (planning counters), today's qualified leads (order_id, qualified_at).
 */
@Injectable()
export class LeadStatsService {
  constructor(
    private readonly ds: DataSource,
    private readonly statuses: StatusCataloguesService,
    private readonly repo: LeadsRepository,
  ) {}

  async orderLeadStats(orderId: number, now: Date, today: { start: Date; end: Date }): Promise<OrderLeadStats> {
    const statuses = await this.statuses.leadStatuses();
    const count = async (statusIds: number[]) =>
      statusIds.length === 0 ? 0 : (await LEAD_COUNTERS.stats(this.ds, { keys: { order_id: [orderId], status_id: statusIds } })).total;
    const planned = async (from: Date | null, to: Date) => (await LEAD_PLANNING_COUNTERS.stats(this.ds, { keys: { order_id: [orderId] }, from, to })).total;
    const [perCategory, dueNow, dueWithinHour, qualifiedToday] = await Promise.all([
      Promise.all(LEAD_STATUS_CATEGORIES.map((c) => count(statuses.filter((s) => s.category === c).map((s) => s.id)))),
      planned(null, now),
      planned(new Date(now.getTime() + 1), new Date(now.getTime() + HOUR_MS)),
      this.repo.countQualified(this.ds.manager, orderId, today.start, today.end),
    ]);
    const byCategory = Object.fromEntries(LEAD_STATUS_CATEGORIES.map((c, i) => [c, perCategory[i]])) as Record<LeadStatusCategory, number>;
    return { total: perCategory.reduce((a, b) => a + b, 0), byCategory, dueNow, dueWithinHour, qualifiedToday };
  }
}
