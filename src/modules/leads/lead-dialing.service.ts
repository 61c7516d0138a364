import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { decideDialing, type DialingDecision } from '../dialing/domain/dialing-decision';
import { OrdersService } from '../orders/orders.service';
import type { OrderSettings } from '../orders/domain/order-settings';
import {
  type DecisionColumns,
  type DncListScope,
  DECIDE_CHUNK,
  type LeadCallFacts,
  type LeadDialingRow,
  LeadDialingRepository,
  type LeadSelector,
} from './persistence/lead-dialing.repository';

/**
 * Where the dialing decision (dialing/domain/dialing-decision.ts) is made for stored leads, inside each writer's transaction: a
 * lead update or a recorded call asks `decideFor` and writes the result in its own UPDATE; a do-not-call add holds set-based
 * (`stopPlanned`, the decision's do-not-call part); a removal, an expiry and an order's rule change ask `redecide`. Creates decide
 * in buildNewLead. Readers show what it stored.
 */
@Injectable()
export class LeadDialingService implements OnModuleInit {
  constructor(
    private readonly repo: LeadDialingRepository,
    private readonly orders: OrdersService,
  ) {}

  onModuleInit(): void {
    this.orders.onDialingRulesChanged((m, orderId) => this.redecide(m, { orderId }).then(() => undefined));
  }

  /** For a write of do-not-call entries: the orders the lists cover, locked until `m` ends (see LeadDialingRepository.lockListOrders). */
  lockLists(m: EntityManager, lists: DncListScope[] | 'every'): Promise<void> {
    return this.repo.lockListOrders(m, lists);
  }

  /** Before a lead's row lock, in a write that may plan it (an update, a recorded call): its order `FOR KEY SHARE`. */
  async lockOrderOfLead(m: EntityManager, leadId: number): Promise<void> {
    await this.repo.lockOrderOfLead(m, leadId);
  }

  /**
   * Before a lead's row lock, for a call that opts out: the orders the opt-out's list covers (its order's client's list, the global
   * list when the order has none: DncService.optOutOnCall), as lockLists.
   */
  async lockForOptOut(m: EntityManager, leadId: number): Promise<void> {
    const clientId = await this.repo.clientOfLead(m, leadId);
    if (clientId === undefined) return;
    await this.repo.lockListOrders(m, clientId === null ? 'every' : [{ scope: 'client', orderId: null, clientId }]);
  }

  /** A list now covers `phones`: the leads it covers are held (the decision's do-not-call part, set-based); how many. */
  stopPlanned(phones: string[], list: DncListScope, m: EntityManager): Promise<number> {
    return this.repo.holdListed(phones, list, m);
  }

  /** Entries of `phones` were removed or expired: the leads a list held are decided again (another entry may still hold them). */
  releaseNumbers(phones: string[], m: EntityManager, now = new Date()): Promise<number> {
    return phones.length === 0 ? Promise.resolve(0) : this.redecide(m, { phones, heldBy: 'dnc' }, now);
  }

  /**
   * The decision made again for the selected leads, from what is stored now (the caller's changes included), in rounds of
   * DECIDE_CHUNK leads locked in id order; what differs is written. How many leads changed.
   */
  async redecide(m: EntityManager, selector: LeadSelector, now = new Date()): Promise<number> {
    let changed = 0;
    for (let afterId = 0; ;) {
      const rows = await this.repo.lockFacts(m, selector, now, afterId);
      if (rows.length === 0) return changed;
      changed += await this.repo.writeDecisions(m, await this.decideAll(m, rows, now));
      if (rows.length < DECIDE_CHUNK) return changed;
      afterId = rows[rows.length - 1].id;
    }
  }

  /** Leads a dialer gives back, wanted again not before `at`: the moment they are wanted moves, and the decision places their call. */
  async defer(m: EntityManager, ids: number[], at: Date, now = new Date()): Promise<void> {
    if (ids.length === 0) return;
    await this.repo.deferDialAfter(m, ids, at);
    await this.redecide(m, { ids }, now);
  }

  /**
   * One lead's decision as it will be after a change of its own (an update, a recorded call) that the caller writes in the same
   * UPDATE, so the change and its decision are one row version and one lead.updated. The caller holds the lead's row lock.
   */
  async decideFor(m: EntityManager, id: number, change: LeadDialingChange, now = new Date()): Promise<DecisionColumns | null> {
    const row = await this.repo.factsOf(m, id, change.phone, now);
    return row && this.decideOn(m, row, change, now);
  }

  /** The decision on facts the caller read under the lead's row lock (lockForCall), with the write's own change applied. */
  async decideOn(m: EntityManager, row: LeadDialingRow, change: LeadDialingChange, now: Date): Promise<DecisionColumns | null> {
    const order = await this.orders.getOrderSettings(row.orderId, m);
    if (!order) return null;
    const changed: LeadDialingRow = {
      ...row,
      timeZone: change.timeZone !== undefined ? change.timeZone : row.timeZone,
      utcOffset: change.utcOffset ?? row.utcOffset,
      hasConsent: change.hasConsent ?? row.hasConsent,
      dialAfter: change.dialAfter !== undefined ? change.dialAfter : row.dialAfter,
    };
    const d = decideDialing(dialingFacts(changed, order, now));
    return { planningCallAt: d.planningCallAt, dialingHold: d.hold?.reasons ?? null, dialingHoldSince: d.hold?.since ?? null, dailyCapUntil: d.capUntil };
  }

  /**
   * The lead a call is recorded against, locked until `m` ends, with the decision's facts before the call; null when there is none.
   * `lockOrder`: its order `FOR KEY SHARE` first, in the same statement (as lockOrderOfLead); false when the caller holds it already.
   */
  lockForCall(m: EntityManager, leadId: number, now: Date, lockOrder: boolean): Promise<LeadCallFacts | null> {
    return this.repo.lockForCall(m, leadId, now, lockOrder);
  }

  /** lockForCall of many leads, in id order (calls recorded in a batch); leads that do not exist are left out. */
  lockForCalls(m: EntityManager, ids: readonly number[], now: Date): Promise<LeadCallFacts[]> {
    return this.repo.lockForCalls(m, ids, now);
  }

  private async decideAll(m: EntityManager, rows: LeadDialingRow[], now: Date): Promise<{ id: number; decision: DialingDecision }[]> {
    const orders = new Map<number, OrderSettings | null>();
    for (const id of new Set(rows.map((r) => r.orderId))) orders.set(id, await this.orders.getOrderSettings(id, m));
    const decisions = [];
    for (const row of rows) {
      const order = orders.get(row.orderId);
      if (order) decisions.push({ id: row.id, decision: decideDialing(dialingFacts(row, order, now)) });
    }
    return decisions;
  }
}

/** What a lead's own write changes of the decision's inputs (absent: as stored). */
export interface LeadDialingChange {
  phone?: string;
  timeZone?: string | null;
  utcOffset?: number;
  hasConsent?: boolean;
  dialAfter?: Date | null;
}

/** The decision's facts of a stored lead. */
export function dialingFacts(row: LeadDialingRow, order: OrderSettings, now: Date) {
  return {
    now,
    order,
    lead: { timeZone: row.timeZone, utcOffset: row.utcOffset, hasConsent: row.hasConsent, dialAfter: row.dialAfter },
    dncListed: row.dncListed,
    callStarts: row.callStarts,
    previousHold: row.hold,
    previousPlan: row.planningCallAt,
  };
}
