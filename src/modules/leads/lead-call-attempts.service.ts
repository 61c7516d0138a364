import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { CallAttemptWrite, LeadForCall } from './domain/lead';
import { LeadsRepository } from './persistence/leads.repository';
import { LeadDialingService } from './lead-dialing.service';

/**
 * What the calls module may do to a lead when it records a call, in the call's transaction `m`:
 * the lead table is written by this module only.
 */
@Injectable()
export class LeadCallAttemptsService {
  constructor(
    private readonly repo: LeadsRepository,
    private readonly holds: LeadDialingService,
  ) {}

  /** The lead a call is recorded against, locked until `m` ends; null when there is none. */
  lockForCall(m: EntityManager, leadId: number): Promise<LeadForCall | null> {
    return this.repo.lockForCall(m, leadId);
  }

  /** Attempt counts of many leads at once, for calls recorded in bulk (the demo dataset). */
  setAttemptCounts(m: EntityManager, counts: ReadonlyMap<number, number>): Promise<void> {
    return this.repo.setAttemptCounts(m, counts);
  }

  /** After the call: the lead's attempt count and the redial it wants, then the dialing decision with the call counted. */
  async recordCallAttempt(m: EntityManager, leadId: number, next: CallAttemptWrite): Promise<void> {
    const decision = await this.holds.decideFor(m, leadId, { dialAfter: next.dialAfter });
    await this.repo.update(m, leadId, { attemptCount: next.attemptCount, ...(next.dialAfter !== undefined ? { dialAfter: next.dialAfter } : {}), ...decision });
  }

  /**
   * Before the lead's row lock, what a call may plan or list needs locked (LeadDialingService): for an opt-out, the orders its list
   * covers; else the lead's order `FOR KEY SHARE`.
   */
  lockOrdersForCall(m: EntityManager, leadId: number, optOut: boolean): Promise<void> {
    return optOut ? this.holds.lockForOptOut(m, leadId) : this.holds.lockOrderOfLead(m, leadId);
  }
}
