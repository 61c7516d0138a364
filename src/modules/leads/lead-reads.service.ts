import { Injectable } from '@nestjs/common';
import type { ClientAccess } from '../../common/auth-context';
import { DomainError } from '../../common/domain-error';
import { Page, toPage } from '../../common/envelope';
import { countedPage } from '../../database/counters/counted-page';
import { ReadDatabase } from '../../database/read-database';
import { OrdersService } from '../orders/orders.service';
import type { Lead, LeadFilter } from './domain/lead';
import type { LeadLookupFilter } from './domain/lead-lookup';
import { LeadPreparationService } from './lead-preparation.service';
import { LeadBulkRepository } from './persistence/lead-bulk.repository';
import { LeadsRepository } from './persistence/leads.repository';

/**
 * Reading leads: one by id, a filtered page, a lookup by phone or external id; each within the
 * orders the caller's `access` reaches (another client's lead reads as one that does not exist).
 */
@Injectable()
export class LeadReadsService {
  constructor(
    private readonly repo: LeadsRepository,
    private readonly bulk: LeadBulkRepository,
    private readonly preparation: LeadPreparationService,
    private readonly orders: OrdersService,
    private readonly read: ReadDatabase,
  ) {}

  async getLead(id: number, access: ClientAccess): Promise<Lead> {
    const lead = await this.repo.findById(id, access);
    if (!lead) throw DomainError.notFound('Lead', id);
    return lead;
  }

  /**
   * A page and its exact total. The counters answer first: they give the total and the id range
   * the matching leads occupy, so the page query reads about one page of the id index however
   * far into a large order the matches lie (and is skipped when nothing can match).
   */
  async listLeads(filter: LeadFilter, offset: number, limit: number, access: ClientAccess): Promise<Page<Lead>> {
    const reach = await this.withinReach(filter, access);
    if (!reach) return toPage([], offset, 0);
    const filtered = !!(reach.orderIds?.length || reach.statusIds?.length || reach.createdFrom || reach.createdTo);
    // Lag-tolerant: served by a read replica when configured (page and total from the same one).
    return this.read.run(async (db) =>
      countedPage(await this.repo.stats(db, reach), offset, (ids) => this.repo.listPage(db, reach, offset, limit, filtered ? ids : undefined)),
    );
  }

  /** Leads matching a lookup key (phone normalised as on create: 400 when it is not a phone) and the other filters. */
  async lookupLeads(filter: LeadLookupFilter, offset: number, limit: number, access: ClientAccess): Promise<Page<Lead>> {
    const keys = { ...filter.keys };
    if (keys.phone !== undefined) keys.phone = this.preparation.normalisedPhone(keys.phone);
    const reach = await this.withinReach(filter, access);
    if (!reach) return toPage([], offset, 0);
    return this.read.run((db) => this.bulk.lookupPage(db, { ...reach, keys }, offset, limit));
  }

  /**
   * The filter confined to the orders `access` reaches: a client key's orders (or those of its
   * `orderIds` that are its client's), so the counters sum over them alone. Null when that leaves
   * no order: the page is empty without reading leads. Unrestricted access: the filter as it is.
   */
  private async withinReach<F extends LeadFilter>(filter: F, access: ClientAccess): Promise<F | null> {
    const reached = await this.orders.orderIdsReached(access);
    if (reached === null) return filter;
    const own = new Set(reached);
    const orderIds = filter.orderIds?.length ? filter.orderIds.filter((id) => own.has(id)) : reached;
    return orderIds.length ? { ...filter, orderIds } : null;
  }
}
