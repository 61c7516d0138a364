import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DateRange } from '../../common/date-range';
import { DomainError, FieldError } from '../../common/domain-error';
import { Page, toPage } from '../../common/envelope';
import type { ClientAccess } from '../../common/auth-context';
import { countedPage } from '../../database/counters/counted-page';
import { OrdersService } from '../orders/orders.service';
import { UsersService } from '../users/users.service';
import { SipEndpointsService } from '../sip-endpoints/sip-endpoints.service';
import { CallAttemptGroupsService } from '../call-attempt-groups/call-attempt-groups.service';
import { CallStatusesService } from './call-statuses.service';
import { LeadCallAttemptsService } from '../leads/lead-call-attempts.service';
import { type CallOutcome, callTimeProblems, durationProblems, planAfterCall } from './domain/after-call';
import { calledNumber } from './domain/opt-out';
import type { LeadForCall } from '../leads/domain/lead';
import { type CallFilter, type CallRow, confineToOrders } from './domain/call';
import { CallsRepository } from './persistence/calls.repository';
import { DncService } from '../dnc/dnc.service';
import { ReadDatabase } from '../../database/read-database';

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
    const problems: FieldError[] = [...durationProblems(input), ...callTimeProblems(input.startedAt, input.totalDurationSeconds, new Date())];
    if (problems.length) throw DomainError.validation(problems);
    return this.ds.transaction(async (m) => {
      const optOut = input.optOut === true || (await this.statuses.findCallStatus(input.statusId, m))?.isOptOut === true;
      // An opt-out lists the number called: a re-delivery's as its first delivery stored it, else this delivery's clientPhone,
      // else the lead's phone. The orders' locks come before the lead's row lock, in the order a create or a list write takes them.
      const delivered = optOut ? await this.calls.deliveredClientPhone(m, input.leadId, input.platformCallId) : null;
      const called = optOut ? calledNumber(delivered ?? input.clientPhone) : null;
      if (called && !called.ok) throw DomainError.validation(called.errors);
      await this.leads.lockOrdersForCall(m, input.leadId, optOut);
      const lead = await this.leads.lockForCall(m, input.leadId);
      if (!lead) throw DomainError.invalidField('leadId', `lead ${input.leadId} does not exist`);
      if (input.orderId !== undefined && input.orderId !== lead.orderId) {
        throw DomainError.invalidField('orderId', `lead ${input.leadId} belongs to order ${lead.orderId}`);
      }
      const refs = await this.references(m, input.userId ?? null, input.sipEndpointId, input.statusId);
      const missing: FieldError[] = [];
      if (!refs.userExists) missing.push({ field: 'userId', message: `user ${input.userId} does not exist` });
      if (!refs.sipEndpointExists) missing.push({ field: 'sipEndpointId', message: `sip endpoint ${input.sipEndpointId} does not exist` });
      if (!refs.status) missing.push({ field: 'statusId', message: `call status ${input.statusId} does not exist` });
      if (missing.length || !refs.status) throw DomainError.validation(missing);

      const startedAt = input.startedAt ?? new Date(Date.now() - input.totalDurationSeconds * 1000);
      const callbackRequested = input.callbackRequested ?? refs.status.isCallback;
      const { id, created } = await this.calls.insertOnce(m, {
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
        callbackRequested,
        platformCallId: input.platformCallId,
        optOut: called !== null,
        createdAt: startedAt,
      });
      // A re-delivery applies an opt-out it carries (the first one may have lacked it) and changes nothing else.
      if (called) {
        if (!created) await this.calls.markOptOut(m, id);
        const order = await this.orders.getOrderSettings(lead.orderId, m);
        await this.dnc.optOutOnCall({ id, phone: called.phone ?? lead.phone, orderClientId: order?.clientId ?? null }, m);
      }
      if (!created) return { id };
      // After the opt-out's entry: the decision reads it and holds the lead.
      await this.planAfterRecordedCall(
        m,
        { id, leadId: input.leadId, startedAt, callbackRequested, outcome: refs.status.category, totalDurationSeconds: input.totalDurationSeconds },
        lead,
      );
      return { id };
    });
  }

  /**
   * After a new call, in the call's transaction: the attempt counted and the redial the attempt group's ladder wants; the
   * leads module then makes the dialing decision (window, consent, lists, the daily cap of the lead's day). A record that
   * arrives after a later call of the lead counts, but does not move the later call's redial, unless it stops the dialling.
   */
  private async planAfterRecordedCall(
    m: EntityManager,
    call: { id: number; leadId: number; startedAt: Date; callbackRequested: boolean; outcome: CallOutcome; totalDurationSeconds: number },
    lead: LeadForCall,
  ): Promise<void> {
    // On the transaction's connection: a second one from the pool while this holds the lead lock can wait for ever.
    const order = await this.orders.getOrderSettings(lead.orderId, m);
    if (!order) throw new Error(`order ${lead.orderId} of lead ${call.leadId} not found`);
    const group = await this.attemptGroups.groupOrDefault(order.callAttemptGroupId, m);
    const next = planAfterCall({
      finishedAt: new Date(call.startedAt.getTime() + call.totalDurationSeconds * 1000),
      previousAttempts: lead.attemptCount,
      outcome: call.outcome,
      callbackRequested: call.callbackRequested,
      group: group ? { intervalsMinutes: group.intervals, repeatLast: group.repeatLastInterval, resetAttemptsEnabled: group.resetAttemptsEnabled } : null,
    });
    const late = next.dialAfter !== null && (await this.calls.hasLaterCall(m, call.leadId, call.id, call.startedAt));
    await this.leads.recordCallAttempt(m, call.leadId, { attemptCount: next.attemptCount, ...(late ? {} : { dialAfter: next.dialAfter }) });
  }

  /**
   * The call's references, each asked of the module that owns it, on the transaction's connection:
   * the agent and the SIP endpoint (one query each; none for a call without an agent), and the
   * status from this module's cached catalogue.
   */
  private async references(m: EntityManager, userId: number | null, sipEndpointId: number, statusId: number) {
    const userExists = userId === null || (await this.users.existingIds([userId], m)).length > 0;
    const sipEndpointExists = (await this.sipEndpoints.existingIds([sipEndpointId], m)).length > 0;
    const status = await this.statuses.findCallStatus(statusId, m);
    return { userExists, sipEndpointExists, status };
  }
}
