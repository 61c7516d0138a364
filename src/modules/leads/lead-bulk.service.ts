import { Inject, Injectable } from '@nestjs/common';
import { nextTurn } from '../../common/next-turn';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { ClientAccess } from '../../common/auth-context';
import { DomainError, FieldError } from '../../common/domain-error';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import type { CreateLeadInput, UpdateLeadInput } from './domain/lead';
import { duplicateWindowStart } from './domain/lead-links';
import { LeadsService } from './leads.service';
import { LeadPreparationService } from './lead-preparation.service';
import type { LookupKey } from './domain/lead-lookup';
import { BatchRow, LeadBulkRepository } from './persistence/lead-bulk.repository';
import { LeadsRepository } from './persistence/leads.repository';

/** Most items a batch create takes (the body limit of the route is sized for it). */
export const MAX_BATCH_LEADS = 1000;
/** Items validated between two yields to the event loop: a 1,000-item batch never holds it for long. */
const ITEMS_PER_TURN = 100;

/** A batch item after the request-shape check: its create input, or why its shape is wrong. */
export type BatchItem = { ok: true; input: CreateLeadInput } | { ok: false; errors: FieldError[] };

export type BatchItemResult = { index: number; success: true; id: number } | { index: number; success: false; errors: FieldError[] };

export interface BatchResult {
  results: BatchItemResult[];
  created: number;
  failed: number;
}

/**
 * The job id of a batch's item `index`: fixed by the request's idempotency token, so a retry of
 * a batch whose idempotency record was lost finds the leads it made (as the single create does
 * with its token). Shaped as a name-based UUID.
 */
export function batchItemToken(token: string, index: number): string {
  const h = createHash('sha256').update(`${token}\nitem ${index}`).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The update a matched upsert applies: every field of the create body but those that only a create sets. */
export function upsertChanges(input: CreateLeadInput): UpdateLeadInput {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { leadType, orderId, orderCode, messengerId, ...changes } = input;
  return changes;
}

/**
 * Batch inserts running at once per instance. A batch holds a connection and an advisory lock per distinct phone (up to 1,000)
 * until it commits, and the shared lock table holds about max_locks_per_transaction x max_connections (64 x 100 by default):
 * queued here so neither it nor the pool runs out. Inserts are CPU-bound (about 0.2 ms a lead): two keep two cores busy.
 */
const BATCH_INSERTS_AT_ONCE = 2;

/** At most `max` tasks at once; the others wait their turn in arrival order. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.max) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * Bulk and keyed writes for integrators: batch create and upsert by phone or external id. Every
 * rule is the single create's or update's (LeadPreparationService, LeadsService); this service
 * only makes them set-based or keyed.
 */
@Injectable()
export class LeadBulkService {
  private readonly batchInserts = new Gate(BATCH_INSERTS_AT_ONCE);

  constructor(
    private readonly ds: DataSource,
    private readonly leads: LeadsService,
    private readonly preparation: LeadPreparationService,
    private readonly leadsRepo: LeadsRepository,
    private readonly repo: LeadBulkRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Each item under the single create's rules (prepareLead; an order `access` does not reach is unknown); the valid ones
   * inserted together in one transaction (LeadBulkRepository.insertBatch), linked as if created one by one in item order.
   */
  async createBatch(items: BatchItem[], access: ClientAccess, idempotencyToken?: string): Promise<BatchResult> {
    const results: BatchItemResult[] = new Array<BatchItemResult>(items.length);
    const rows: BatchRow[] = [];
    for (const [index, item] of items.entries()) {
      if (index > 0 && index % ITEMS_PER_TURN === 0) await nextTurn();
      if (!item.ok) {
        results[index] = { index, success: false, errors: item.errors };
        continue;
      }
      try {
        const lead = await this.preparation.prepareLead(item.input, access);
        rows.push({ index, lead, jobId: idempotencyToken ? batchItemToken(idempotencyToken, index) : null });
      } catch (err) {
        if (!(err instanceof DomainError && err.kind === 'validation')) throw err;
        results[index] = { index, success: false, errors: err.fieldErrors.length ? err.fieldErrors : [{ field: '', message: err.message }] };
      }
    }
    const since = duplicateWindowStart(new Date(), this.config.leadDuplicateWindowDays);
    const ids = rows.length ? await this.batchInserts.run(() => this.ds.transaction((m) => this.repo.insertBatch(m, rows, since))) : new Map<number, number>();
    for (const row of rows) {
      const id = ids.get(row.index);
      // Every valid row is inserted or found by its job id; anything else is a bug, never silent.
      if (id === undefined) throw new Error(`batch item ${row.index} neither inserted nor found`);
      results[row.index] = { index: row.index, success: true, id };
    }
    const created = rows.length;
    return { results, created, failed: items.length - created };
  }

  /**
   * Updates the most recent lead of the body's order whose `matchBy` equals the body's value, or creates one. The (order, key,
   * value) lock makes find-or-create atomic; the update runs after it, through LeadsService.updateLead. An order `access` does
   * not reach is refused as one that does not exist, so the key only ever matches the caller's own leads.
   */
  async upsert(input: CreateLeadInput, matchBy: LookupKey, access: ClientAccess, idempotencyToken?: string): Promise<{ id: number; created: boolean }> {
    const raw = input[matchBy];
    if (raw === undefined || raw === '') throw DomainError.invalidField(matchBy, `is required when matchBy is ${matchBy}`);
    const value = matchBy === 'phone' ? this.preparation.normalisedPhone(raw, 'phone') : raw;
    const order = await this.preparation.reachableOrder(input.orderId, access);
    if (!order) throw DomainError.invalidField('orderId', `order ${input.orderId} does not exist`);
    if (order.code !== input.orderCode) throw DomainError.invalidField('orderCode', `names a different order than the order id ${input.orderId}`);

    const found = await this.ds.transaction(async (m) => {
      await this.repo.lockUpsertKey(m, order.id, matchBy, value);
      // A retry of a create whose idempotency record was lost: the lead it made, nothing new.
      const made = idempotencyToken ? await this.repo.findByJobId(m, order.id, idempotencyToken) : null;
      if (made !== null) return { id: made, created: true };
      const existing = await this.repo.findLatestByKey(m, order.id, matchBy, value);
      if (existing !== null) return { id: existing, created: false };
      const lead = await this.preparation.prepareLead(input, access, m);
      const since = duplicateWindowStart(new Date(), this.config.leadDuplicateWindowDays);
      return { id: await this.leadsRepo.insertLinked(m, lead, { since, jobId: idempotencyToken ?? null }), created: true };
    });
    if (!found.created) await this.leads.updateLead(found.id, upsertChanges(input), access);
    return found;
  }
}
