import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Cache } from '../../common/cache';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { DomainError } from '../../common/domain-error';
import { IdempotentWrites } from '../../common/idempotency/idempotent-writes';
import { isUniqueViolation } from '../../common/pg-errors';
import { defaultStatusProblem, LeadStatus } from './domain/lead-status';
import { LeadStatusChanges, StatusCataloguesRepository } from './persistence/status-catalogues.repository';
import { LEAD_ERRORS } from './domain/leads.errors';

/**
 * The lead status catalogue (call statuses are the calls module's), managed through the admin endpoints and read on every lead
 * write through a per-instance cache of REFERENCE_CACHE_TTL_MS (5 s): cleared here at once on a change, seen by others within the TTL.
 */
@Injectable()
export class StatusCataloguesService {
  /** One entry: the whole lead status catalogue. */
  private readonly cache: Cache<'lead', LeadStatus[]>;

  constructor(
    private readonly repo: StatusCataloguesRepository,
    private readonly ds: DataSource,
    private readonly idempotent: IdempotentWrites,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'referenceCacheTtlMs'>,
  ) {
    this.cache = new Cache({ ttlMs: config.referenceCacheTtlMs, max: 1 });
  }

  /** The catalogue, from the cache; `m`: read on that manager's connection (a transaction's, or the workers' pool). */
  async leadStatuses(m?: EntityManager): Promise<LeadStatus[]> {
    return (await this.cache.getOrLoad('lead', () => this.repo.listLeadStatuses(m)))!;
  }

  async leadStatus(id: number): Promise<LeadStatus> {
    const found = (await this.repo.listLeadStatuses()).find((s) => s.id === id);
    if (!found) throw DomainError.notFound('Lead status', id);
    return found;
  }

  /** Creates a lead status; `isDefault` moves the default to it in the same transaction. */
  async createLeadStatus(input: Required<Pick<LeadStatusChanges, 'code' | 'title' | 'category'>> & { isDefault?: boolean }): Promise<number> {
    const problem = defaultStatusProblem(null, input);
    if (problem) throw DomainError.validation([problem]);
    return this.writing(() =>
      this.idempotent.transaction(
        async (m) => {
          const id = await this.repo.insertLeadStatus(m, input);
          if (input.isDefault) {
            await this.repo.lockDefaultStatus(m);
            await this.repo.clearOtherDefaults(m, id);
            await this.repo.updateLeadStatus(m, id, { isDefault: true });
          }
          return id;
        },
        (id) => ({ id }),
      ),
    );
  }

  /** Changes the fields sent; the catalogue always keeps exactly one (in-progress) default. */
  async updateLeadStatus(id: number, changes: LeadStatusChanges): Promise<void> {
    await this.writing(() =>
      this.ds.transaction(async (m) => {
        if (changes.isDefault !== undefined || changes.category !== undefined) await this.repo.lockDefaultStatus(m);
        const current = await this.repo.lockLeadStatus(m, id);
        if (!current) throw DomainError.notFound('Lead status', id);
        const problem = defaultStatusProblem(current, changes);
        if (problem) throw DomainError.validation([problem]);
        if (changes.isDefault && !current.isDefault) await this.repo.clearOtherDefaults(m, id);
        await this.repo.updateLeadStatus(m, id, changes);
      }),
    );
  }

  /** A taken code is a 409; the cache is dropped whatever happened. */
  private async writing<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err, 'lead_status_code_idx')) {
        throw DomainError.conflict(LEAD_ERRORS.STATUS_CODE_TAKEN, 'Another status of this catalogue already has this code');
      }
      throw err;
    } finally {
      this.cache.clear();
    }
  }
}
