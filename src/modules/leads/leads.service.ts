import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { type ClientAccess, reachesClient } from '../../common/auth-context';
import { DomainError } from '../../common/domain-error';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { OrdersService } from '../orders/orders.service';
import { countryTimeZone, orderZone, wholeHourOffset, zoneOf } from '../orders/domain/time-zone';
import { CreateLeadInput, UpdateLeadInput } from './domain/lead';
import { leadUpdate, LeadUpdate } from './domain/lead-changes';
import { duplicateWindowStart } from './domain/lead-links';
import type { LeadStatus } from './domain/lead-status';
import type { OrderSettings } from './domain/new-lead';
import { entersQualified, orderDayBounds, qualifiedAtAfter, withinDailyLimit } from './domain/qualified-limit';
import { LEAD_ERRORS } from './domain/leads.errors';
import { LeadPreparationService } from './lead-preparation.service';
import { StatusCataloguesService } from './status-catalogues.service';
import { LeadChanges, LeadForUpdate, LeadsRepository } from './persistence/leads.repository';
import { LeadDialingService } from './lead-dialing.service';

/**
 * Writes of one lead, the synchronous create and the partial update, for both v1 and v2 (rules in domain/ and
 * LeadPreparationService). Reads needing no lock (cached order settings, statuses, custom fields) come before the transaction,
 * which takes the (order, phone) lock, finds the previous lead, inserts and links in one statement.
 */
@Injectable()
export class LeadsService {
  constructor(
    private readonly ds: DataSource,
    private readonly repo: LeadsRepository,
    private readonly holds: LeadDialingService,
    private readonly preparation: LeadPreparationService,
    private readonly statuses: StatusCataloguesService,
    private readonly orders: OrdersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Synchronous create: validated, linked to its previous lead, planned. `idempotencyToken` is stored as the lead's job id
   * (unique per order): a retry whose idempotency record was lost finds the lead. An order `access` does not reach is unknown.
   */
  async createLead(input: CreateLeadInput, access: ClientAccess, idempotencyToken?: string): Promise<{ id: number }> {
    const lead = await this.preparation.prepareLead(input, access);
    const since = duplicateWindowStart(new Date(), this.config.leadDuplicateWindowDays);
    // One statement, its own transaction: lead_create holds the (order, phone) lock until it commits, so the
    // lead found as previous is the latest committed one and exactly one new lead links to it.
    return { id: await this.repo.insertLinked(this.ds, lead, { since, jobId: idempotencyToken ?? null }) };
  }

  /**
   * Partial update: only the fields sent change. The rules are leadUpdate's (shared with create);
   * applyUpdate writes them. A lead `access` does not reach is a 404, as one that does not exist.
   */
  async updateLead(id: number, input: UpdateLeadInput, access: ClientAccess): Promise<void> {
    const statuses = input.statusId !== undefined ? await this.statuses.leadStatuses() : [];
    const custom = await this.preparation.customValues(input.customValues);
    const update = leadUpdate(input, { statuses, customValues: input.customValues !== undefined ? custom.value : undefined, now: new Date() });
    const errors = [...custom.errors, ...(update.ok ? [] : update.errors)];
    if (!update.ok || errors.length) throw DomainError.validation(errors);
    await this.ds.transaction((m) => this.applyUpdate(m, id, update.value, statuses, access));
  }

  /**
   * The update's transaction: the lead locked (lockForChange), then what depends on what it holds: the status move (and the
   * qualified limit it may reach) and its zone; when an input of the dialing decision changes (number, zone, consent, an explicit
   * call time), the decision made for the lead as it will be (LeadDialingService.decideFor); one UPDATE.
   */
  private async applyUpdate(m: EntityManager, id: number, update: LeadUpdate, statuses: readonly LeadStatus[], access: ClientAccess): Promise<void> {
    const changes: LeadChanges = { ...update.changes };
    const current = await this.lockForChange(m, id, changes.phone, access);
    const now = new Date();
    if (update.status && update.status.id !== current.statusId) {
      const from = statuses.find((s) => s.id === current.statusId)?.category ?? 'in-progress';
      // On the transaction's connection: a second one from the pool while this holds the row lock can wait for ever.
      if (entersQualified(from, update.status.category))
        await this.checkQualifiedLimit(m, current.orderId, await this.orders.getOrderSettings(current.orderId, m), now);
      changes.statusId = update.status.id;
      changes.qualifiedAt = qualifiedAtAfter(from, update.status.category, current.qualifiedAt, now);
    }
    const newPhoneCountry = changes.phone !== undefined && changes.phone !== current.phone ? update.phoneCountry : undefined;
    const zone = nextLeadZone(current, { timeZone: update.timeZone, utcOffset: update.utcOffset }, newPhoneCountry, now);
    if (zone.utcOffset !== current.utcOffset) changes.utcOffset = zone.utcOffset;
    if (zone.timeZone !== current.timeZone) changes.timeZone = zone.timeZone;
    // Its number, zone, consent or wanted moment changes: the dialing decision again, written in the same UPDATE.
    const inputs = {
      phone: changes.phone !== current.phone ? changes.phone : undefined,
      timeZone: changes.timeZone,
      utcOffset: changes.utcOffset,
      dialAfter: changes.dialAfter,
    };
    const hasConsent = changes.consent === undefined || (changes.consent !== null) === (current.consent !== null) ? undefined : changes.consent !== null;
    if (Object.values(inputs).some((v) => v !== undefined) || hasConsent !== undefined) {
      Object.assign(changes, await this.holds.decideFor(m, id, { ...inputs, hasConsent }, now));
    }
    // An explicit call time wants the lead dialled again: no outcome rule stops it any more.
    if (changes.dialAfter !== undefined) changes.dialStop = null;
    await this.repo.update(m, id, changes);
  }

  /**
   * Locks the lead for an update; a phone change also takes the lead out of its duplicate chain
   * (its neighbours are joined), under the locks lockPhoneMove takes before the row's. A lead
   * `access` does not reach is not found, before anything changes.
   */
  private async lockForChange(m: EntityManager, id: number, newPhone: string | undefined, access: ClientAccess): Promise<LeadForUpdate> {
    const move = newPhone !== undefined ? await this.lockPhoneMove(m, id, newPhone) : null;
    // After the phone locks (as a create takes them) and before the row lock: a do-not-call write then waits for this one, or this for it.
    await this.holds.lockOrderOfLead(m, id);
    const current = await this.repo.lockForUpdate(m, id);
    if (!current || !reachesClient(access, current.orderClientId)) throw DomainError.notFound('Lead', id);
    if (move) {
      if (current.phone !== move.from) throw new Error(`lead ${id}: its phone changed under its phone-change lock`);
      await this.repo.detachFromChain(m, id, current.previousLeadId, current.nextLeadId);
    }
    return current;
  }

  /**
   * For an update sending `to`: the lead's phone-change lock (its phone stays as read, so concurrent
   * changes apply one after another), then, if the phone moves, both phones' locks in a fixed order,
   * as creates of those phones take them. Null when the phone stays or there is no such lead.
   */
  private async lockPhoneMove(m: EntityManager, id: number, to: string): Promise<{ from: string } | null> {
    await this.repo.lockPhoneChange(m, id);
    const before = await this.repo.findPhone(m, id);
    if (before === null || before.phone === to) return null;
    for (const p of [before.phone, to].sort()) await this.repo.lockPhone(m, before.orderId, p);
    return { from: before.phone };
  }

  /** 409 when the order already has its limit of qualified leads today (the order's day in its default zone or offset). */
  private async checkQualifiedLimit(m: EntityManager, orderId: number, order: OrderSettings | null, now: Date): Promise<void> {
    const limit = order?.qualifiedLeadsPerDayLimit ?? null;
    if (limit === null || !order) return;
    await this.repo.lockQualified(m, orderId);
    const day = orderDayBounds(now, orderZone(order));
    const today = await this.repo.countQualified(m, orderId, day.start, day.end);
    if (!withinDailyLimit(today, limit)) {
      throw DomainError.conflict(
        LEAD_ERRORS.QUALIFIED_LIMIT,
        `Order ${orderId} already has ${today} qualified lead(s) today, its qualifiedLeadsPerDayLimit is ${limit}`,
      );
    }
  }
}

/**
 * A lead's zone after an update, the first that applies: a `timeZone` sent (null clears it: the
 * lead keeps its fixed offset); a `utcOffset` sent (a fixed offset, no zone); a new phone's
 * country when it has a single zone; else unchanged.
 */
function nextLeadZone(
  current: { timeZone: string | null; utcOffset: number },
  sent: { timeZone?: string | null; utcOffset?: number },
  newPhoneCountry: string | null | undefined,
  now: Date,
): { timeZone: string | null; utcOffset: number } {
  const named = (name: string) => ({ timeZone: name, utcOffset: wholeHourOffset(zoneOf(name, 0), now) });
  if (sent.timeZone) return named(sent.timeZone);
  if (sent.utcOffset !== undefined) return { timeZone: null, utcOffset: sent.utcOffset };
  if (sent.timeZone === null) return { timeZone: null, utcOffset: current.utcOffset };
  const country = newPhoneCountry === undefined ? null : countryTimeZone(newPhoneCountry);
  return country ? named(country) : current;
}
