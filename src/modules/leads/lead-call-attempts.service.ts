import { Injectable } from '@nestjs/common';
import { nextTurn } from '../../common/next-turn';
import { EntityManager } from 'typeorm';
import type { CallAttemptWrite } from './domain/lead';
import type { DialStop } from '../dialing/domain/redial-rule';
import { LeadsRepository } from './persistence/leads.repository';
import { LeadDialingService } from './lead-dialing.service';
import { type LeadCallFacts, LeadDialingRepository, type LeadDialingRow } from './persistence/lead-dialing.repository';
import { withCallStart } from './domain/recent-calls';

export type { LeadCallFacts };

/** What a call path read of the lead before its call (lockForCall), for the decision after it. */
export interface CallBefore {
  facts: LeadCallFacts;
  callStartedAt: Date;
  now: Date;
}

/** The facts with a new call counted, as a read after its insert would list it. */
function withCall(facts: LeadDialingRow, startedAt: Date, now: Date): LeadDialingRow {
  return { ...facts, callStarts: withCallStart(facts.callStarts, startedAt, now) };
}

/** Decisions made per turn of the event loop for calls recorded in a batch. */
const DECISIONS_PER_TURN = 100;

/** The wanted moment and why none, when the call moves them: a later redial (or none for another reason) clears an outcome rule's stop. */
function wantedOf(next: CallAttemptWrite): { dialAfter: Date | null; dialStop: DialStop | null } | undefined {
  if (next.dialAfter === undefined) return undefined;
  return { dialAfter: next.dialAfter, dialStop: next.dialAfter === null ? (next.stop ?? null) : null };
}

/**
 * What the calls module may do to a lead when it records a call, in the call's transaction `m`:
 * the lead table is written by this module only.
 */
@Injectable()
export class LeadCallAttemptsService {
  constructor(
    private readonly repo: LeadsRepository,
    private readonly holds: LeadDialingService,
    private readonly dialing: LeadDialingRepository,
  ) {}

  /**
   * The lead a call is recorded against, locked until `m` ends, with the dialing decision's facts as they stand before the call; null
   * when there is none. Before the lead's row lock, what the call may plan or list needs locked (LeadDialingService): for an opt-out,
   * the orders its list covers; else the lead's order `FOR KEY SHARE`, in the same statement.
   */
  async lockForCall(m: EntityManager, leadId: number, now: Date, optOut: boolean): Promise<LeadCallFacts | null> {
    if (optOut) await this.holds.lockForOptOut(m, leadId);
    return this.holds.lockForCall(m, leadId, now, !optOut);
  }

  /** lockForCall of many leads in id order, for calls recorded in a batch (none opts out); leads that do not exist are left out. */
  lockForCalls(m: EntityManager, leadIds: readonly number[], now: Date): Promise<LeadCallFacts[]> {
    return this.holds.lockForCalls(m, leadIds, now);
  }

  /**
   * recordCallAttempt of many leads, one call each, with the facts lockForCalls read: the decisions made in turn, written in one
   * statement.
   */
  async recordCallAttempts(m: EntityManager, calls: { leadId: number; next: CallAttemptWrite; before: CallBefore }[]): Promise<void> {
    const rows = [];
    for (const [i, { leadId, next, before }] of calls.entries()) {
      if (i > 0 && i % DECISIONS_PER_TURN === 0) await nextTurn();
      const decision = await this.holds.decideOn(m, withCall(before.facts, before.callStartedAt, before.now), { dialAfter: next.dialAfter }, before.now);
      rows.push({ id: leadId, attemptCount: next.attemptCount, wanted: wantedOf(next), decision });
    }
    await this.dialing.writeCallAttempts(m, rows);
  }

  /** Attempt counts of many leads at once, for calls recorded in bulk (the demo dataset). */
  setAttemptCounts(m: EntityManager, counts: ReadonlyMap<number, number>): Promise<void> {
    return this.repo.setAttemptCounts(m, counts);
  }

  /**
   * After the call: the lead's attempt count and the redial it wants, then the dialing decision with the call counted. `before`: the
   * facts lockForCall read and the call's start, when nothing the decision reads has changed since but the call (no list write in
   * between, as an opt-out's); without it the facts are read again.
   */
  async recordCallAttempt(m: EntityManager, leadId: number, next: CallAttemptWrite, before?: CallBefore): Promise<void> {
    const change = { dialAfter: next.dialAfter };
    const decision = before
      ? await this.holds.decideOn(m, withCall(before.facts, before.callStartedAt, before.now), change, before.now)
      : await this.holds.decideFor(m, leadId, change);
    await this.repo.update(m, leadId, { attemptCount: next.attemptCount, ...wantedOf(next), ...decision });
  }
}
