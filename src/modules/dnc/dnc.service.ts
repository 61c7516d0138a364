import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ClientAccess } from '../../common/auth-context';
import { reachesClient } from '../../common/auth-context';
import { DomainError, type FieldError } from '../../common/domain-error';
import type { Page } from '../../common/envelope';
import { ClientsService } from '../clients/clients.service';
import { LeadDialingService } from '../leads/lead-dialing.service';
import { OrdersService } from '../orders/orders.service';
import { DNC_ERRORS } from './domain/dnc.errors';
import { isoDateTime } from '../../common/dates';
import { EventOutbox } from '../events/event-outbox.service';
import { checkExpiry, type DncChange, type DncEntry, type DncList, EXPIRED_REASON, normalisePhones, removalChanges } from './domain/dnc-entry';
import { type DncFilter, DncRepository, type DncReach } from './persistence/dnc.repository';

export interface DncListRef {
  orderId?: number;
  clientId?: number;
}

export interface DncAddInput extends DncListRef {
  phones: unknown[];
  expiresAt?: string;
  reason?: string;
}

/**
 * Do-not-call lists: the global one, a client's, an order's. A client key reaches its client's list and its orders' lists;
 * another client's order or client answers as a missing one, the global list is out of its reach.
 */
@Injectable()
export class DncService {
  constructor(
    private readonly ds: DataSource,
    private readonly repo: DncRepository,
    private readonly orders: OrdersService,
    private readonly clients: ClientsService,
    private readonly leads: LeadDialingService,
    private readonly events: EventOutbox,
  ) {}

  /** Puts the numbers on the list (or updates expiry and reason) and stops the leads it covers; how many were added or updated. */
  async add(access: ClientAccess, input: DncAddInput): Promise<number> {
    const errors: FieldError[] = [];
    const phones = normalisePhones(input.phones);
    if (!phones.ok) errors.push(...phones.errors);
    const expiry = checkExpiry(input.expiresAt, new Date());
    if (!expiry.ok) errors.push(...expiry.errors);
    const list = await this.listOf(access, input, errors);
    if (!phones.ok || !expiry.ok || !list) throw DomainError.validation(errors);
    const fields = { expiresAt: expiry.value, reason: input.reason ?? null };
    const sorted = [...phones.value].sort();
    return this.ds.transaction((m) => this.addInTransaction(list, sorted, fields, m));
  }

  /** Valid, sorted numbers onto `list` in the caller's transaction (an add, the demo seed), with its dnc.added; how many were added or updated. */
  async addInTransaction(list: DncList, sorted: string[], fields: { expiresAt: Date | null; reason: string | null }, m: EntityManager): Promise<number> {
    // The entries and the stop of the leads they cover commit together, under the covered orders' locks: no lead of these numbers stays planned.
    await this.leads.lockLists(m, [list]);
    const count = await this.repo.add(list, sorted, fields, m);
    await this.leads.stopPlanned(sorted, list, m);
    const change = { ...list, phones: sorted, expiresAt: isoDateTime(fields.expiresAt), reason: fields.reason, source: 'api', callId: null } as const;
    await this.appendEvent(m, 'dnc.added', change);
    return count;
  }

  /**
   * An opt-out on a call: the number goes on its order's client's list (global without a client) and every lead it covers stops, in
   * the call's transaction; dnc.added unless the entry was this call's already (a re-delivery).
   */
  async optOutOnCall(call: { id: number; phone: string; orderClientId: number | null }, m: EntityManager): Promise<void> {
    const list: DncList =
      call.orderClientId === null ? { scope: 'global', orderId: null, clientId: null } : { scope: 'client', orderId: null, clientId: call.orderClientId };
    await this.leads.lockLists(m, [list]);
    const changed = await this.repo.addFromCall(list, call.phone, call.id, m);
    await this.leads.stopPlanned([call.phone], list, m);
    if (changed) await this.appendEvent(m, 'dnc.added', { ...list, phones: [call.phone], expiresAt: null, reason: null, source: 'call', callId: call.id });
  }

  /**
   * Removes the numbers from exactly that list and plans again the leads no other entry holds; how many were on it. An opt-out's
   * entry (source call) is permanent but for an admin (`mayRemoveOptOuts`): without it, a request naming one is refused whole.
   */
  async remove(access: ClientAccess, input: DncListRef & { phones: unknown[] }, mayRemoveOptOuts: boolean): Promise<number> {
    const errors: FieldError[] = [];
    const phones = normalisePhones(input.phones);
    if (!phones.ok) errors.push(...phones.errors);
    const list = await this.listOf(access, input, errors);
    if (!phones.ok || !list) throw DomainError.validation(errors);
    const sorted = [...phones.value].sort();
    return this.ds.transaction(async (m) => {
      await this.leads.lockLists(m, [list]);
      if (!mayRemoveOptOuts && (await this.repo.countOptOuts(list, sorted, m)) > 0) {
        throw new DomainError(
          'forbidden',
          DNC_ERRORS.OPT_OUT_REMOVAL_NEEDS_ADMIN,
          'An entry an opt-out on a call made (source call) is removed only with a key of the admin scope; nothing was removed',
        );
      }
      const removed = await this.repo.remove(list, sorted, m);
      if (removed.length === 0) return 0;
      await this.leads.releaseNumbers(sorted, m);
      for (const change of removalChanges(removed, null, false)) await this.appendEvent(m, 'dnc.removed', change);
      return removed.length;
    });
  }

  /** Applies expired entries: plans again the leads they held (unless another entry still does), a batch of numbers per transaction. */
  async applyExpiries(now = new Date(), batch = 500): Promise<number> {
    let released = 0;
    for (;;) {
      const candidates = (await this.repo.expiredNumbers(now, batch)).sort();
      if (candidates.length === 0) return released;
      released += await this.ds.transaction(async (m) => {
        // Expiries of any list: every order, briefly (a sweep batch is one short transaction).
        await this.leads.lockLists(m, 'every');
        const expired = await this.repo.applyExpiries(m, candidates, now);
        for (const change of removalChanges(expired, EXPIRED_REASON, true)) await this.appendEvent(m, 'dnc.removed', change);
        return this.leads.releaseNumbers([...new Set(expired.map((e) => e.phone))].sort(), m, now);
      });
      if (candidates.length < batch) return released;
    }
  }

  /** Entries by id ascending; a client key's only from its client's list and its orders' lists. */
  async list(access: ClientAccess, filter: DncFilter & { phone?: string }, offset: number, limit: number): Promise<Page<DncEntry>> {
    let phone: string | undefined;
    if (filter.phone !== undefined) {
      const parsed = normalisePhones([filter.phone]);
      if (!parsed.ok) throw DomainError.validation([{ field: 'phone', message: parsed.errors[0].message }]);
      phone = parsed.value[0];
    }
    const orderIds = await this.orders.orderIdsReached(access);
    const reach: DncReach = access.clientId === null ? null : { clientId: access.clientId, orderIds: orderIds ?? [] };
    return this.repo.listPage({ ...filter, phone }, reach, offset, limit);
  }

  /** A change's event in its transaction: an order's list's carries the order, a client's list's the client, the global list's neither. */
  private appendEvent(m: EntityManager, type: 'dnc.added' | 'dnc.removed', change: DncChange): Promise<void> {
    const { scope, orderId, clientId, phones, expiresAt, reason, source, callId } = change;
    return this.events.append(m, { type, orderId, clientId, data: { scope, orderId, clientId, phones, expiresAt, reason, source, callId } });
  }

  /** The list a request names; null (with the reason in `errors`) when it names none the caller reaches. */
  private async listOf(access: ClientAccess, ref: DncListRef, errors: FieldError[]): Promise<DncList | null> {
    if (ref.orderId !== undefined && ref.clientId !== undefined) {
      errors.push({ field: 'clientId', message: 'name either orderId or clientId, not both' });
      return null;
    }
    if (ref.orderId !== undefined) {
      const order = await this.orders.getOrderSettings(ref.orderId);
      if (order && reachesClient(access, order.clientId)) return { scope: 'order', orderId: ref.orderId, clientId: null };
      errors.push({ field: 'orderId', message: `order ${ref.orderId} does not exist` });
      return null;
    }
    const clientId = ref.clientId ?? access.clientId;
    if (clientId === null) return { scope: 'global', orderId: null, clientId: null };
    const known = access.clientId !== null ? access.clientId === clientId : (await this.clients.existingIds([clientId])).length > 0;
    if (known) return { scope: 'client', orderId: null, clientId };
    errors.push({ field: 'clientId', message: `client ${clientId} does not exist` });
    return null;
  }
}
