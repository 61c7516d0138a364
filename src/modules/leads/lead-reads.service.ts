import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/domain-error';
import { Page } from '../../common/envelope';
import { countedPage } from '../../database/counters/counted-page';
import { ReadDatabase } from '../../database/read-database';
import type { Lead, LeadFilter } from './domain/lead';
import type { LeadLookupFilter } from './domain/lead-lookup';
import { LeadPreparationService } from './lead-preparation.service';
import { LeadBulkRepository } from './persistence/lead-bulk.repository';
import { LeadsRepository } from './persistence/leads.repository';

/** Reading leads: one by id, a filtered page, a lookup by phone or external id. */
@Injectable()
export class LeadReadsService {
  constructor(
    private readonly repo: LeadsRepository,
    private readonly bulk: LeadBulkRepository,
    private readonly preparation: LeadPreparationService,
    private readonly read: ReadDatabase,
  ) {}

  async getLead(id: number): Promise<Lead> {
    const lead = await this.repo.findById(id);
    if (!lead) throw DomainError.notFound('Lead', id);
    return lead;
  }

  /**
   * A page and its exact total. The counters answer first: they give the total and the id range
   * the matching leads occupy, so the page query reads about one page of the id index however
   * far into a large order the matches lie (and is skipped when nothing can match).
   */
  async listLeads(filter: LeadFilter, offset: number, limit: number): Promise<Page<Lead>> {
    const filtered = !!(filter.orderIds?.length || filter.statusIds?.length || filter.createdFrom || filter.createdTo);
    // Lag-tolerant: served by a read replica when configured (page and total from the same one).
    return this.read.run(async (db) =>
      countedPage(await this.repo.stats(db, filter), offset, (ids) => this.repo.listPage(db, filter, offset, limit, filtered ? ids : undefined)),
    );
  }

  /** Leads matching a lookup key (phone normalised as on create: 400 when it is not a phone) and the other filters. */
  async lookupLeads(filter: LeadLookupFilter, offset: number, limit: number): Promise<Page<Lead>> {
    const keys = { ...filter.keys };
    if (keys.phone !== undefined) keys.phone = this.preparation.normalisedPhone(keys.phone);
    return this.read.run((db) => this.bulk.lookupPage(db, { ...filter, keys }, offset, limit));
  }
}
