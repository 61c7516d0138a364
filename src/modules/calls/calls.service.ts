import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DateRange } from '../../common/date-range';
import { DomainError, FieldError } from '../../common/domain-error';
import { isForeignKeyViolation } from '../../common/pg-errors';
import { Page, toPage } from '../../common/envelope';
import type { ClientAccess } from '../../common/auth-context';
import { countedPage } from '../../database/counters/counted-page';
import { OrdersService } from '../orders/orders.service';
import { UsersService } from '../users/users.service';
import { SipEndpointsService } from '../sip-endpoints/sip-endpoints.service';
import { CallAttemptGroupsService } from '../call-attempt-groups/call-attempt-groups.service';
import { CallStatusesService } from '../call-statuses/call-statuses.service';
import { type LeadCallFacts, LeadCallAttemptsService } from '../leads/lead-call-attempts.service';
import type { CallAttemptWrite } from '../leads/domain/lead';
import { laterCallAmong } from '../leads/domain/recent-calls';
import { callTimeProblems, durationProblems, planAfterCall } from './domain/after-call';
import { calledNumber } from './domain/opt-out';
import { type CallFilter, type CallRow, confineToOrders } from './domain/call';
import { CallsRepository, type NewCall } from './persistence/calls.repository';
import { DialerService } from '../dialer/dialer.service';
import { DncService } from '../dnc/dnc.service';
import { redialRuleFor } from '../dialing/domain/redial-rule';
import type { CallStatus } from '../call-statuses/domain/call-status';
import { ReadDatabase } from '../../database/read-database';
import { nextTurn } from '../../common/next-turn';

/** Redials planned per turn of the event loop for calls recorded in a batch. */
const PLANS_PER_TURN = 100;

export interface RecordCallInput {
  platformCallId: string;
  leadId: number;
  orderId?: number;
  userId?: number | null;
  sipEndpointId: number;
  statusId: number;
  finishInitiator?: 'agent' | 'client' | 'system' | null;
  direction: 'incoming' | 'outgoing';
  totalDurationSeconds: number;
  waitTimeDurationSeconds: number;
  talkTimeDurationSeconds: number;
  isPredictive?: boolean;
  clientPhone?: string;
  hasRecords?: boolean;
  callbackRequested?: boolean;
  /** The person asked not to be called again: the number goes on a do-not-call list. */
  optOut?: boolean;
  startedAt?: Date;
  /** The dialer's claim of the lead this call ends (a claim that is not the lead's live one: 409); absent or null: any claim of the lead. */
  claimToken?: string | null;
}

/** What a new call's transaction knows of it when it plans the lead's next attempt. */
export interface NewCallFacts {
  id: number;
  leadId: number;
  startedAt: Date;
  callbackRequested: boolean;
  status: CallStatus;
  totalDurationSeconds: number;
}

/** A call's own inconsistencies (durations, times), before anything is read. */
export function inputProblems(input: RecordCallInput, now: Date): FieldError[] {
  return [...durationProblems(input), ...callTimeProblems(input.startedAt, input.totalDurationSeconds, now)];
}

/** How a refused call names a status the catalogue does not have. */
export const missingStatus = (statusId: number): FieldError => ({ field: 'statusId', message: `call status ${statusId} does not exist` });

/** The call row an input stores against its lead. */
export function newCallRow(
  input: RecordCallInput,
  lead: { orderId: number; phone: string },
  c: { startedAt: Date; callbackRequested: boolean; optOut: boolean },
): NewCall {
  return {
    orderId: lead.orderId,
    leadId: input.leadId,
    userId: input.userId ?? null,
    sipEndpointId: input.sipEndpointId,
    statusId: input.statusId,
    finishInitiator: input.finishInitiator ?? null,
    direction: input.direction,
    totalDurationSeconds: input.totalDurationSeconds,
    waitTimeDurationSeconds: input.waitTimeDurationSeconds,
    talkTimeDurationSeconds: input.talkTimeDurationSeconds,
    isPredictive: input.isPredictive ?? false,
    clientPhone: (input.clientPhone ?? lead.phone).replace(/^\+/, ''),
    hasRecords: input.hasRecords ?? false,
    callbackRequested: c.callbackRequested,
    platformCallId: input.platformCallId,
    optOut: c.optOut,
    createdAt: c.startedAt,
  };
}

export type CallListQuery = Omit<CallFilter, 'from' | 'to'> & DateRange & { offset: number; limit: number };

@Injectable()
export class CallsService {
  constructor(
    private readonly ds: DataSource,
    private readonly calls: CallsRepository,
    private readonly orders: OrdersService,
    private readonly users: UsersService,
    private readonly sipEndpoints: SipEndpointsService,
    private readonly attemptGroups: CallAttemptGroupsService,
    private readonly statuses: CallStatusesService,
    private readonly read: ReadDatabase,
    private readonly leads: LeadCallAttemptsService,
    private readonly dnc: DncService,
    private readonly dialer: DialerService,
  ) {}

  /** A call of an order `access` reaches; another client's answers as one that does not exist. */
  async getCall(access: ClientAccess, id: number): Promise<CallRow> {
    const call = await this.calls.findById(id, access.clientId);
    if (!call) throw DomainError.notFound('Call', id);
    return call;
  }

  async listCalls(access: ClientAccess, q: CallListQuery): Promise<Page<CallRow>> {
    if (!q.leadIds?.length && !q.orderIds?.length) {
      throw DomainError.validation([{ field: 'leadIds', message: 'leadIds or orderIds is required' }]);
    }
    // A client key lists within its client's orders: its total is summed over their counters.
    const reached = await this.orders.orderIdsReached(access);
    const filter = reached === null ? q : confineToOrders(q, reached);
    if (!filter) return toPage([], q.offset, 0);
    // Exact total and id bounds first (counters or the lead index), then a page confined to them.
    // Lag-tolerant: served by a read replica when configured (page and total from the same one).
    return this.read.run(async (db) =>
      countedPage(await this.calls.stats(db, filter), q.offset, (ids) => this.calls.listPage(db, filter, q.offset, q.limit, ids)),
    );
  }

  /**
   * Records a finished call from the telephony platform, once per platform call id, and updates its
   * lead: attempt count and next call time. An opt-out (the flag or the status's) lists the number called.
   * A retried delivery returns the stored call and changes nothing but applying an opt-out it carries.
   */
  async recordCall(input: RecordCallInput): Promise<{ id: number }> {
    const problems = inputProblems(input, new Date());
    if (problems.length) throw DomainError.validation(problems);
    const status = await this.statuses.findCallStatus(input.statusId);
    if (!status) throw DomainError.validation(await this.missingReferences(input));
    try {
      return await this.ds.transaction((m) => this.recordIn(m, input, status));
    } catch (err) {
      // The agent and the SIP endpoint are checked by the call's foreign keys: the insert is refused, and the answer names each one missing.
      if (!isForeignKeyViolation(err)) throw err;
      const missing = await this.missingReferences(input);
      throw missing.length ? DomainError.validation(missing) : err;
    }
  }

  private async recordIn(m: EntityManager, input: RecordCallInput, status: CallStatus): Promise<{ id: number }> {
    const now = new Date();
    const optOut = input.optOut === true || status.isOptOut;
    // An opt-out lists the number called: a re-delivery's as its first delivery stored it, else this delivery's clientPhone,
    // else the lead's phone. The orders' locks come before the lead's row lock, in the order a create or a list write takes them.
    const delivered = optOut ? await this.calls.deliveredClientPhone(m, input.leadId, input.platformCallId) : null;
    const called = optOut ? calledNumber(delivered ?? input.clientPhone) : null;
    if (called && !called.ok) throw DomainError.validation(called.errors);
    const lead = await this.leads.lockForCall(m, input.leadId, now, optOut);
    if (!lead) throw DomainError.invalidField('leadId', `lead ${input.leadId} does not exist`);
    if (input.orderId !== undefined && input.orderId !== lead.orderId) {
      throw DomainError.invalidField('orderId', `lead ${input.leadId} belongs to order ${lead.orderId}`);
    }
    const startedAt = input.startedAt ?? new Date(now.getTime() - input.totalDurationSeconds * 1000);
    const callbackRequested = input.callbackRequested ?? status.isCallback;
    const { id, created } = await this.calls.insertOnce(m, newCallRow(input, lead, { startedAt, callbackRequested, optOut: called !== null }));
    // A re-delivery applies an opt-out it carries (the first one may have lacked it) and changes nothing else.
    if (called) {
      if (!created) await this.calls.markOptOut(m, id);
      const order = await this.orders.getOrderSettings(lead.orderId, m);
      await this.dnc.optOutOnCall({ id, phone: called.phone ?? lead.phone, orderClientId: order?.clientId ?? null }, m);
    }
    if (!created) return { id };
    await this.dialer.endOnCall(m, { id: input.leadId, orderId: lead.orderId }, input.claimToken);
    // After the opt-out's entry: the decision reads it and holds the lead (the facts read before it are then read again).
    await this.planAfterRecordedCall(
      m,
      { id, leadId: input.leadId, startedAt, callbackRequested, status, totalDurationSeconds: input.totalDurationSeconds },
      lead,
      {
        now,
        factsStillHold: called === null,
      },
    );
    return { id };
  }

  /**
   * After a new call, in the call's transaction: the attempt counted and the redial (nextAttempts); the leads module then makes the
   * dialing decision (window, consent, lists, the daily cap of the lead's day).
   */
  private async planAfterRecordedCall(m: EntityManager, call: NewCallFacts, lead: LeadCallFacts, read: { now: Date; factsStillHold: boolean }): Promise<void> {
    const [next] = await this.nextAttempts(m, [{ call, lead }], read.now);
    await this.leads.recordCallAttempt(m, call.leadId, next, read.factsStillHold ? { facts: lead, callStartedAt: call.startedAt, now: read.now } : undefined);
  }

  /**
   * Of each new call, its lead's attempt count and the redial the attempt group's ladder and the status's redial rule want (the
   * order's rule for that status over the status's own). A record that arrives after a later call of the lead counts, but does not
   * move the later call's redial, unless it stops the dialling. The calls whose rule caps its outcome's calls are counted in one
   * statement; one call per lead.
   */
  async nextAttempts(m: EntityManager, calls: readonly { call: NewCallFacts; lead: LeadCallFacts }[], now: Date): Promise<CallAttemptWrite[]> {
    const planned = [];
    for (const { call, lead } of calls) {
      // On the transaction's connection: a second one from the pool while this holds the lead lock can wait for ever.
      const order = await this.orders.getOrderSettings(lead.orderId, m);
      if (!order) throw new Error(`order ${lead.orderId} of lead ${call.leadId} not found`);
      const group = await this.attemptGroups.groupOrDefault(order.callAttemptGroupId, m);
      planned.push({ call, lead, group, rule: redialRuleFor(call.status.id, order.redialRules, call.status.redial) });
    }
    const capped = planned.filter((p) => p.rule?.maxAttempts != null);
    const counts = await this.calls.countEndingIn(
      m,
      capped.map((p) => ({ orderId: p.lead.orderId, leadId: p.call.leadId, statusId: p.call.status.id })),
    );
    const out: CallAttemptWrite[] = [];
    for (const [i, { call, lead, group, rule }] of planned.entries()) {
      if (i > 0 && i % PLANS_PER_TURN === 0) await nextTurn();
      const next = planAfterCall({
        finishedAt: new Date(call.startedAt.getTime() + call.totalDurationSeconds * 1000),
        previousAttempts: lead.attemptCount,
        outcome: call.status.category,
        callbackRequested: call.callbackRequested,
        group: group ? { intervalsMinutes: group.intervals, repeatLast: group.repeatLastInterval, resetAttemptsEnabled: group.resetAttemptsEnabled } : null,
        rule,
        // Counted only when the rule caps its outcome's calls: the lead's calls ending in that status, this one included.
        outcomeCalls: rule?.maxAttempts != null ? (counts.get(call.leadId) ?? 0) : undefined,
      });
      const late =
        next.dialAfter !== null &&
        (laterCallAmong(lead.callStarts, call.startedAt, now) ?? (await this.calls.hasLaterCall(m, call.leadId, call.id, call.startedAt)));
      out.push({ attemptCount: next.attemptCount, ...(late ? {} : { dialAfter: next.dialAfter, stop: next.stop }) });
    }
    return out;
  }

  /**
   * What a refused call names that does not exist, each asked of the module that owns it: the agent, the SIP endpoint (one query
   * each) and the status. Read only when the call is refused: an accepted call's foreign keys have checked the agent and endpoint.
   */
  private async missingReferences(input: RecordCallInput): Promise<FieldError[]> {
    const [missing] = await this.missingAgentsAndEndpoints([input]);
    if (!(await this.statuses.findCallStatus(input.statusId))) missing.push(missingStatus(input.statusId));
    return missing;
  }

  /** Per input, the agent and SIP endpoint it names that do not exist: one query each for all the inputs. */
  async missingAgentsAndEndpoints(inputs: readonly RecordCallInput[]): Promise<FieldError[][]> {
    const userIds = [...new Set(inputs.flatMap((i) => (i.userId != null ? [i.userId] : [])))];
    const users = new Set(userIds.length ? await this.users.existingIds(userIds) : []);
    const endpoints = new Set(await this.sipEndpoints.existingIds([...new Set(inputs.map((i) => i.sipEndpointId))]));
    return inputs.map((i) => [
      ...(i.userId != null && !users.has(i.userId) ? [{ field: 'userId', message: `user ${i.userId} does not exist` }] : []),
      ...(endpoints.has(i.sipEndpointId) ? [] : [{ field: 'sipEndpointId', message: `sip endpoint ${i.sipEndpointId} does not exist` }]),
    ]);
  }
}
