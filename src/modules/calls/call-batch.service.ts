import { Injectable } from '@nestjs/common';
import { nextTurn } from '../../common/next-turn';
import { DataSource, EntityManager } from 'typeorm';
import { DomainError, FieldError } from '../../common/domain-error';
import { CallStatusesService } from '../call-statuses/call-statuses.service';
import type { CallStatus } from '../call-statuses/domain/call-status';
import { LeadCallAttemptsService, type LeadCallFacts } from '../leads/lead-call-attempts.service';
import { DialerService } from '../dialer/dialer.service';
import { CallsService, inputProblems, missingStatus, newCallRow, type RecordCallInput } from './calls.service';
import { CallsRepository, platformKey } from './persistence/calls.repository';

/** Most calls one batch records. */
export const MAX_BATCH_CALLS = 500;

export type CallBatchItem = { ok: true; input: RecordCallInput } | { ok: false; errors: FieldError[] };

export type CallBatchItemResult = { index: number; success: true; id: number } | { index: number; success: false; errors: FieldError[] };

export interface CallBatchResult {
  results: CallBatchItemResult[];
  recorded: number;
  failed: number;
}

/** An item bound for the set-based transaction. */
interface Pending {
  index: number;
  input: RecordCallInput;
  status: CallStatus;
  startedAt: Date;
}

/** With its lead, locked. */
type Located = Pending & { lead: LeadCallFacts };

/** Records the item's refusal; false, for filters. */
type Fail = (index: number, errors: FieldError[]) => false;

const callKey = (p: Located) => ({ orderId: p.lead.orderId, platformCallId: p.input.platformCallId });

const ITEMS_PER_TURN = 100;

/**
 * `POST /v2/call/create-batch/`: each item under every rule of a single call record, a bad item failing alone. The common calls (no
 * opt-out, one per lead and platform call id in the batch) go through one transaction of set-based statements: the leads' orders and
 * rows locked in id order with the decision's facts, the stored ones found, the claim tokens checked, the new calls inserted, their
 * claims ended, and each lead's attempt and decision written in one statement. The others are recorded one by one after it, in item
 * order, exactly as the single route records them.
 */
@Injectable()
export class CallBatchService {
  constructor(
    private readonly ds: DataSource,
    private readonly single: CallsService,
    private readonly calls: CallsRepository,
    private readonly statuses: CallStatusesService,
    private readonly leads: LeadCallAttemptsService,
    private readonly dialer: DialerService,
  ) {}

  async recordBatch(items: CallBatchItem[]): Promise<CallBatchResult> {
    const now = new Date();
    const results = new Array<CallBatchItemResult>(items.length);
    const fail: Fail = (index, errors) => {
      results[index] = { index, success: false, errors };
      return false;
    };
    const pending: Pending[] = [];
    const unknownStatus: { index: number; input: RecordCallInput }[] = [];
    const oneByOne: number[] = [];
    const seenLeads = new Set<number>();
    const seenCalls = new Set<string>();
    // Each status of the batch looked up once, a known one or not (an unknown one reloads the catalogue).
    const statuses = new Map<number, CallStatus | null>();
    for (const [index, item] of items.entries()) {
      if (index > 0 && index % ITEMS_PER_TURN === 0) await nextTurn();
      if (!item.ok) {
        fail(index, item.errors);
        continue;
      }
      const { input } = item;
      const problems = inputProblems(input, now);
      if (problems.length) {
        fail(index, problems);
        continue;
      }
      if (!statuses.has(input.statusId)) statuses.set(input.statusId, await this.statuses.findCallStatus(input.statusId));
      const status = statuses.get(input.statusId)!;
      if (!status) {
        unknownStatus.push({ index, input });
        continue;
      }
      // An opt-out, a lead or a platform call id met before in the batch: recorded alone, after the batch, in item order.
      const repeated = seenLeads.has(input.leadId) || seenCalls.has(input.platformCallId);
      seenLeads.add(input.leadId);
      seenCalls.add(input.platformCallId);
      if (input.optOut === true || status.isOptOut || repeated) oneByOne.push(index);
      else pending.push({ index, input, status, startedAt: input.startedAt ?? new Date(now.getTime() - input.totalDurationSeconds * 1000) });
    }
    // The single route's refusal of an unknown status names every missing reference: here read for the whole batch at once.
    const references = await this.single.missingAgentsAndEndpoints([...pending, ...unknownStatus].map((p) => p.input));
    unknownStatus.forEach((u, i) => fail(u.index, [...references[pending.length + i], missingStatus(u.input.statusId)]));
    const valid = pending.filter((p, i) => references[i].length === 0 || fail(p.index, references[i]));
    if (valid.length) {
      const stored = await this.ds.transaction((m) => this.recordTogether(m, valid, now, fail));
      for (const [index, id] of stored) results[index] = { index, success: true, id };
    }
    for (const index of oneByOne) results[index] = await this.recordAlone(index, (items[index] as { input: RecordCallInput }).input);
    const recorded = results.filter((r) => r.success).length;
    return { results, recorded, failed: results.length - recorded };
  }

  /** The batch's common calls in one transaction; the stored call of each item that did not fail, by item index. */
  private async recordTogether(m: EntityManager, items: Pending[], now: Date, fail: Fail): Promise<Map<number, number>> {
    const ids = new Map<number, number>();
    const found = await this.lockLeads(m, items, now, fail);
    // A call the platform delivered before answers with its id and changes nothing (it carries no opt-out here).
    const before = await this.calls.findByPlatformIds(m, found.map(callKey));
    const fresh = found.filter((p) => {
      const stored = before.get(platformKey(callKey(p)));
      if (stored !== undefined) ids.set(p.index, stored);
      return stored === undefined;
    });
    const tokens = await this.dialer.checkCallTokens(
      m,
      fresh.map((p) => ({ orderId: p.lead.orderId, leadId: p.input.leadId, claimToken: p.input.claimToken })),
      now,
    );
    const claimed = fresh.filter(
      (p, i) => tokens[i] || fail(p.index, [{ field: 'claimToken', message: `claimToken is not a live claim of lead ${p.input.leadId}` }]),
    );
    const rows = claimed.map((p) =>
      newCallRow(p.input, p.lead, { startedAt: p.startedAt, callbackRequested: p.input.callbackRequested ?? p.status.isCallback, optOut: false }),
    );
    const inserted = await this.calls.insertMany(m, rows);
    // Stored meanwhile by a concurrent record of the same platform call: its id, and nothing else.
    const raced = claimed.filter((p) => !inserted.has(platformKey(callKey(p))));
    const theirs = await this.calls.findByPlatformIds(m, raced.map(callKey));
    for (const p of raced) ids.set(p.index, theirs.get(platformKey(callKey(p)))!);
    const created = claimed.flatMap((p, i) => {
      const id = inserted.get(platformKey(callKey(p)));
      return id === undefined ? [] : [{ ...p, id, callbackRequested: rows[i].callbackRequested }];
    });
    for (const c of created) ids.set(c.index, c.id);
    await this.dialer.endOnCalls(
      m,
      created.map((c) => ({ orderId: c.lead.orderId, leadId: c.input.leadId })),
    );
    const calls = created.map((c) => ({
      call: {
        id: c.id,
        leadId: c.input.leadId,
        startedAt: c.startedAt,
        callbackRequested: c.callbackRequested,
        status: c.status,
        totalDurationSeconds: c.input.totalDurationSeconds,
      },
      lead: c.lead,
    }));
    const next = await this.single.nextAttempts(m, calls, now);
    const attempts = created.map((c, i) => ({ leadId: c.input.leadId, next: next[i], before: { facts: c.lead, callStartedAt: c.startedAt, now } }));
    await this.leads.recordCallAttempts(m, attempts);
    return ids;
  }

  /** The items' leads locked with their facts (lockForCalls); an item whose lead does not exist, or is of another order, fails. */
  private async lockLeads(m: EntityManager, items: Pending[], now: Date, fail: Fail): Promise<Located[]> {
    const facts = new Map((await this.leads.lockForCalls(m, [...new Set(items.map((p) => p.input.leadId))], now)).map((l) => [l.id, l]));
    return items.flatMap((p) => {
      const lead = facts.get(p.input.leadId);
      if (!lead) fail(p.index, [{ field: 'leadId', message: `lead ${p.input.leadId} does not exist` }]);
      else if (p.input.orderId !== undefined && p.input.orderId !== lead.orderId) {
        fail(p.index, [{ field: 'orderId', message: `lead ${p.input.leadId} belongs to order ${lead.orderId}` }]);
      } else return [{ ...p, lead }];
      return [];
    });
  }

  /** One item through the single route's path, its refusal as the item's errors. */
  private async recordAlone(index: number, input: RecordCallInput): Promise<CallBatchItemResult> {
    try {
      return { index, success: true, id: (await this.single.recordCall(input)).id };
    } catch (err) {
      if (!(err instanceof DomainError) || (err.kind !== 'validation' && err.kind !== 'conflict')) throw err;
      return { index, success: false, errors: err.fieldErrors.length ? err.fieldErrors : [{ field: 'claimToken', message: err.message }] };
    }
  }
}
