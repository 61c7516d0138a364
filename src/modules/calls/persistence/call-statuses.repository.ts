import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { definedFields } from '../../../common/defined-fields';
import { insertedId } from '../../../database/insert-result';
import type { CallStatus, CallStatusCategory } from '../domain/call-status';
import { CallStatusEntity } from './call-status.entity';

export interface CallStatusChanges {
  code?: string;
  title?: string;
  category?: CallStatusCategory;
  isCallback?: boolean;
  isOptOut?: boolean;
}

@Injectable()
export class CallStatusesRepository {
  constructor(private readonly ds: DataSource) {}

  private repo(m: EntityManager = this.ds.manager): Repository<CallStatusEntity> {
    return m.getRepository(CallStatusEntity);
  }

  list(m?: EntityManager): Promise<CallStatus[]> {
    return this.repo(m).find({ order: { id: 'ASC' } });
  }

  findById(id: number): Promise<CallStatus | null> {
    return this.repo().findOneBy({ id });
  }

  async insert(s: Required<CallStatusChanges>, m: EntityManager = this.ds.manager): Promise<number> {
    const result = await this.repo(m).insert({ code: s.code, title: s.title, category: s.category, isCallback: s.isCallback, isOptOut: s.isOptOut });
    return insertedId(result);
  }

  /** False when there is no such status. */
  async update(id: number, changes: CallStatusChanges): Promise<boolean> {
    const set = definedFields(changes);
    if (Object.keys(set).length === 0) return this.repo().existsBy({ id });
    const result = await this.repo().update({ id }, set);
    return (result.affected ?? 0) > 0;
  }
}
