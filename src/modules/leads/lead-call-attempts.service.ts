import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { LeadForCall } from './domain/lead';
import { LeadsRepository } from './persistence/leads.repository';

/**
 * What the calls module may do to a lead when it records a call, in the call's transaction `m`:
 * the lead table is written by this module only.
 */
@Injectable()
export class LeadCallAttemptsService {
  constructor(private readonly repo: LeadsRepository) {}

  /** The lead a call is recorded against, locked until `m` ends; null when there is none. */
  lockForCall(m: EntityManager, leadId: number): Promise<LeadForCall | null> {
    return this.repo.lockForCall(m, leadId);
  }

  /** Attempt counts of many leads at once, for calls recorded in bulk (the demo dataset). */
  setAttemptCounts(m: EntityManager, counts: ReadonlyMap<number, number>): Promise<void> {
    return this.repo.setAttemptCounts(m, counts);
  }

  /** After the call: the lead's attempt count, its next call (null: dialing stops) and until when the daily cap holds it. */
  recordCallAttempt(m: EntityManager, leadId: number, attemptCount: number, planningCallAt: Date | null, dailyCapUntil: Date | null): Promise<void> {
    return this.repo.recordCallAttempt(m, leadId, attemptCount, planningCallAt, dailyCapUntil);
  }
}
