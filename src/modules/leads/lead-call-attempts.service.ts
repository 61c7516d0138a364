import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { CallAttemptWrite, LeadForCall } from './domain/lead';
import { LeadsRepository } from './persistence/leads.repository';
import { LeadHoldsRepository } from './persistence/lead-holds.repository';

/**
 * What the calls module may do to a lead when it records a call, in the call's transaction `m`:
 * the lead table is written by this module only.
 */
@Injectable()
export class LeadCallAttemptsService {
  constructor(
    private readonly repo: LeadsRepository,
    private readonly holds: LeadHoldsRepository,
  ) {}

  /** The lead a call is recorded against, locked until `m` ends; null when there is none. */
  lockForCall(m: EntityManager, leadId: number): Promise<LeadForCall | null> {
    return this.repo.lockForCall(m, leadId);
  }

  /** Attempt counts of many leads at once, for calls recorded in bulk (the demo dataset). */
  setAttemptCounts(m: EntityManager, counts: ReadonlyMap<number, number>): Promise<void> {
    return this.repo.setAttemptCounts(m, counts);
  }

  /** After the call: the lead's attempt count, its next call (null: dialing stops, or `hold` says why not) and until when the daily cap holds it. */
  recordCallAttempt(m: EntityManager, leadId: number, next: CallAttemptWrite): Promise<void> {
    return this.repo.recordCallAttempt(m, leadId, next);
  }

  /**
   * For an opt-out: the exclusive do-not-call lock of the number called (null: the lead's number), taken before the lead's row
   * lock (as creates take theirs).
   */
  lockNumberForOptOut(m: EntityManager, leadId: number, calledPhone: string | null): Promise<void> {
    return calledPhone === null ? this.holds.lockNumberOfLead(m, leadId) : this.holds.lockNumbers(m, [calledPhone]);
  }
}
