import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, Not, Repository } from 'typeorm';
import { definedFields } from '../../../common/defined-fields';
import type { LeadStatus, LeadStatusCategory } from '../domain/lead-status';
import { LeadStatusEntity } from './lead-status.entity';
import { insertedId } from '../../../database/insert-result';

export interface LeadStatusChanges {
  code?: string;
  title?: string;
  category?: LeadStatusCategory;
  isDefault?: boolean;
}

/** Any constant: the one lock that serialises changes of the default lead status. */
const DEFAULT_STATUS_LOCK = 727_101;

@Injectable()
export class StatusCataloguesRepository {
  constructor(private readonly ds: DataSource) {}

  private leadStatusRepo(m: EntityManager = this.ds.manager): Repository<LeadStatusEntity> {
    return m.getRepository(LeadStatusEntity);
  }

  listLeadStatuses(m: EntityManager = this.ds.manager): Promise<LeadStatus[]> {
    return this.leadStatusRepo(m).find({ order: { id: 'ASC' } });
  }

  lockLeadStatus(m: EntityManager, id: number): Promise<LeadStatus | null> {
    return this.leadStatusRepo(m).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Serialises changes of the default lead status until the transaction ends. An advisory lock: no TypeORM API. */
  async lockDefaultStatus(m: EntityManager): Promise<void> {
    await m.query('SELECT pg_advisory_xact_lock($1)', [DEFAULT_STATUS_LOCK]);
  }

  /** Takes the default flag from every other status (one statement, inside the caller's transaction). */
  async clearOtherDefaults(m: EntityManager, keepId: number): Promise<void> {
    await this.leadStatusRepo(m).update({ isDefault: true, id: Not(keepId) }, { isDefault: false });
  }

  async insertLeadStatus(m: EntityManager, s: Required<Pick<LeadStatusChanges, 'code' | 'title' | 'category'>>): Promise<number> {
    const result = await this.leadStatusRepo(m).insert({ code: s.code, title: s.title, category: s.category });
    return insertedId(result);
  }

  async updateLeadStatus(m: EntityManager, id: number, changes: LeadStatusChanges): Promise<void> {
    const set = definedFields(changes);
    if (Object.keys(set).length > 0) await this.leadStatusRepo(m).update({ id }, set);
  }
}
