import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type DialingRulesChange, OrdersService } from '../orders/orders.service';
import { planCall } from './domain/new-lead';
import { type DncListScope, type HeldSelector, LeadHoldsRepository } from './persistence/lead-holds.repository';

/**
 * Leads held without a planned call: by a do-not-call entry (the database holds them, see the lead trigger) or by the consent
 * their order requires. The dnc module asks inside its own transaction; order changes of `consentRequired` arrive by a hook.
 */
@Injectable()
export class LeadHoldsService implements OnModuleInit {
  constructor(
    private readonly repo: LeadHoldsRepository,
    private readonly orders: OrdersService,
  ) {}

  onModuleInit(): void {
    this.orders.onDialingRulesChanged((m, orderId, change) => this.dialingRulesChanged(m, orderId, change));
  }

  /** Exclusive locks of the numbers until `m` ends: a create of one of them waits, then finds its entry. */
  lockNumbers(m: EntityManager, phones: string[]): Promise<void> {
    return this.repo.lockNumbers(m, phones);
  }

  /** lockNumbers for the number of a lead, before its row lock (an opt-out on a call). */
  lockNumberOfLead(m: EntityManager, leadId: number): Promise<void> {
    return this.repo.lockNumberOfLead(m, leadId);
  }

  /** Stops the planned calls of the leads of `phones` that `list` covers; how many stopped. */
  stopPlanned(phones: string[], list: DncListScope, m: EntityManager): Promise<number> {
    return this.repo.stopPlanned(phones, list, m);
  }

  /** Plans again the leads of `phones` a list held (removed or expired entries), unless another entry still covers them. */
  releaseNumbers(phones: string[], m: EntityManager, now = new Date()): Promise<number> {
    return phones.length === 0 ? Promise.resolve(0) : this.release(m, { hold: 'dnc', phones }, now);
  }

  isBlocked(leadId: number, at: Date): Promise<boolean> {
    return this.repo.isBlocked(leadId, at);
  }

  /**
   * In the order update's transaction: requiring consent holds the leads without it, dropping it plans them; a new client's list
   * holds the leads it covers, and those the previous client's list held are planned unless another entry still covers them.
   */
  private async dialingRulesChanged(m: EntityManager, orderId: number, change: DialingRulesChange): Promise<void> {
    if (change.consentRequired === true) await this.repo.holdWithoutConsent(m, orderId);
    if (change.consentRequired === false) await this.release(m, { hold: 'consent', orderId }, new Date());
    if (change.clientId !== undefined) {
      await this.repo.holdListedOfOrder(m, orderId);
      await this.release(m, { hold: 'dnc', orderId }, new Date());
    }
  }

  /**
   * Each group of held leads gets the next callable moment from now (not before a running daily cap) in its order's window; a lead
   * without the consent its order requires stays held as `consent`. One read of the groups, one update.
   */
  private async release(m: EntityManager, selector: HeldSelector, now: Date): Promise<number> {
    const groups = await this.repo.heldGroups(m, selector, now);
    const plans = [];
    for (const group of groups) {
      const order = await this.orders.getOrderSettings(group.orderId, m);
      if (!order) continue;
      const allowed = !order.consentRequired || group.hasConsent;
      const at = allowed ? planCall(order, { timeZone: group.timeZone, utcOffset: group.utcOffset }, now, group.capUntil) : null;
      plans.push({ group, at, hold: allowed ? null : ('consent' as const) });
    }
    return this.repo.replanHeld(m, selector, now, plans);
  }
}
