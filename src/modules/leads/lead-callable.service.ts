import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ClientAccess } from '../../common/auth-context';
import { DomainError } from '../../common/domain-error';
import { OrdersService } from '../orders/orders.service';
import { Callability, explainCallable } from './domain/callable';
import { Lead } from './domain/lead';
import { orderDayBounds } from './domain/qualified-limit';
import { orderZone, type OrderZoneSettings, planningZone, zoneOf } from '../orders/domain/time-zone';
import { LeadsRepository } from './persistence/leads.repository';
import { type DialingHold, holdAt } from '../dialing/domain/dialing-decision';
import type { OrderRecord } from '../orders/domain/order-record';
import { storedHold } from './domain/lead';
import type { DialStop } from '../dialing/domain/redial-rule';
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
    return this.callabilityOf(lead, await this.orderFacts(await this.orders.detail(lead.orderId), now), now);
  }

  /**
   * callable for many leads at once (a dialer's last look): the leads, their orders and the qualified counts of the orders with a
   * daily limit, each in one statement, all read fresh. Missing ids are left out.
   */
  async callableMany(leadIds: readonly number[], now = new Date()): Promise<Map<number, LeadCallability>> {
    const leads = await this.repo.findManyById(leadIds);
    const orders = await this.orders.details(leads.map((l) => l.orderId));
    const limited = orders.filter((o) => o.qualifiedLeadsPerDayLimit !== null).map((o) => ({ orderId: o.id, ...this.orderDay(o, now) }));
    const qualified = await this.repo.countQualifiedMany(this.ds.manager, limited);
    const facts = new Map(orders.map((o) => [o.id, { order: o, settings: zoneSettings(o), qualifiedToday: qualified.get(o.id) ?? 0 }]));
    return new Map(leads.filter((l) => facts.has(l.orderId)).map((l) => [l.id, this.callabilityOf(l, facts.get(l.orderId)!, now)]));
  }

  private callabilityOf(lead: Lead, order: OrderFacts, now: Date): LeadCallability {
    const result = this.explain(order, planningZone(order.settings, { timeZone: lead.timeZone ?? null, utcOffset: lead.utcOffset }), {
      planningCallAt: lead.planningCallAt,
      hold: holdAt(storedHold(lead), lead.dailyCapUntil, now),
      dialStop: lead.dialStop,
      now,
    });
    return { ...result, at: now, lead, zone: zoneOf(lead.timeZone, lead.utcOffset) };
  }

  /**
   * For a dialer's claim: a judge of whether a lead of these orders that is due by its stored decision and held by no rule is one
   * `callable` would call callable now: the same rule, explained once per order and zone (for a due, unheld lead nothing else of it
   * counts). The orders are read here, before the claim's transaction, so the judge asks the database nothing.
   */
  async callableNowJudge(dialing: readonly { id: number; autoDialingEnabled: boolean }[], now = new Date()): Promise<(lead: DueUnheldLead) => boolean> {
    const orders = new Map<number, OrderFacts>();
    // The orders' planning settings from their short cache (a claim of 50 orders reads none of them again within the TTL).
    for (const { id, autoDialingEnabled } of dialing) {
      const s = await this.orders.getOrderSettings(id);
      if (s) orders.set(id, await this.orderFacts({ ...s, callHolidayOverrides: s.holidays, autoDialingEnabled }, now));
    }
    const verdicts = new Map<string, boolean>();
    return (lead) => {
      const order = orders.get(lead.orderId);
      if (!order) return false;
      const zone = planningZone(order.settings, lead);
      const key = `${lead.orderId} ${zone.name}`;
      let verdict = verdicts.get(key);
      if (verdict === undefined) {
        verdict = this.explain(order, zone, { planningCallAt: lead.plannedAt, hold: null, dialStop: null, now }).callableNow;
        verdicts.set(key, verdict);
      }
      return verdict;
    };
  }

  /** The order's rules and zone settings, and today's qualified count (when it has a limit). */
  private async orderFacts(order: OrderRules, now: Date): Promise<OrderFacts> {
    let qualifiedToday = 0;
    if (order.qualifiedLeadsPerDayLimit !== null) {
      const day = this.orderDay(order, now);
      qualifiedToday = await this.repo.countQualified(this.ds.manager, order.id, day.from, day.to);
    }
    return { order, settings: zoneSettings(order), qualifiedToday };
  }

  /** The order's local day around `now`, as UTC bounds. */
  private orderDay(order: OrderRules, now: Date): { from: Date; to: Date } {
    const day = orderDayBounds(now, orderZone(zoneSettings(order)));
    return { from: day.start, to: day.end };
  }

  private explain(
    o: OrderFacts,
    zone: Zone,
    lead: { planningCallAt: Date | null; hold: DialingHold | null; dialStop: DialStop | null; now: Date },
  ): Callability {
    return explainCallable({
      now: lead.now,
      zone,
      orderZone: orderZone(o.settings),
      schedule: o.order.callSchedule,
      holidays: o.order.callHolidayOverrides,
      planningCallAt: lead.planningCallAt,
      autoDialingEnabled: o.order.autoDialingEnabled,
      qualifiedToday: o.qualifiedToday,
      qualifiedLeadsPerDayLimit: o.order.qualifiedLeadsPerDayLimit,
      hold: lead.hold,
      dialStop: lead.dialStop,
    });
  }
}

/** A lead whose stored decision has it due and unheld. */
export interface DueUnheldLead {
  leadId: number;
  orderId: number;
  timeZone: string | null;
  utcOffset: number;
  plannedAt: Date;
}

/** What callable reads of an order. */
type OrderRules = Pick<
  OrderRecord,
  'id' | 'callSchedule' | 'callHolidayOverrides' | 'autoDialingEnabled' | 'qualifiedLeadsPerDayLimit' | 'ignoreLeadTimezone' | 'defaultUtcOffset'
> & { defaultTimeZone?: string | null };

interface OrderFacts {
  order: OrderRules;
  settings: OrderZoneSettings;
  qualifiedToday: number;
}

/** The settings planningZone and orderZone read of an order. */
const zoneSettings = (order: OrderRules): OrderZoneSettings => ({
  defaultTimeZone: order.defaultTimeZone,
  defaultUtcOffset: order.defaultUtcOffset,
  ignoreLeadTimezone: order.ignoreLeadTimezone,
});
