import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { definedFields } from '../../../common/defined-fields';
import { existingIds } from '../../../database/existing-ids';
import { insertedId } from '../../../database/insert-result';
import type { RedialRule } from '../../dialing/domain/redial-rule';
import type { CallStatus, CallStatusCategory } from '../domain/call-status';
import { CallStatusEntity } from './call-status.entity';

export interface CallStatusChanges {
  code?: string;
  title?: string;
  category?: CallStatusCategory;
  isCallback?: boolean;
  isOptOut?: boolean;
  /** The whole rule (its columns together). */
  redial?: RedialRule;
}

function toCallStatus(e: CallStatusEntity): CallStatus {
  const { redialAfterMinutes, redialMaxAttempts, redialFinal, ...rest } = e;
  return { ...rest, redial: { afterMinutes: redialAfterMinutes, maxAttempts: redialMaxAttempts, final: redialFinal } };
}

/** The entity's columns of `changes`. */
function columnsOf({ redial, ...rest }: CallStatusChanges): Partial<CallStatusEntity> {
  const columns: Partial<CallStatusEntity> = definedFields(rest);
  if (redial) Object.assign(columns, { redialAfterMinutes: redial.afterMinutes, redialMaxAttempts: redial.maxAttempts, redialFinal: redial.final });
  return columns;
}

@Injectable()
export class CallStatusesRepository {
  constructor(private readonly ds: DataSource) {}

  private repo(m: EntityManager = this.ds.manager): Repository<CallStatusEntity> {
    return m.getRepository(CallStatusEntity);
  }

  async list(m?: EntityManager): Promise<CallStatus[]> {
    return (await this.repo(m).find({ order: { id: 'ASC' } })).map(toCallStatus);
  }

  async findById(id: number): Promise<CallStatus | null> {
    const found = await this.repo().findOneBy({ id });
    return found && toCallStatus(found);
  }

  async insert(s: Required<CallStatusChanges>, m: EntityManager = this.ds.manager): Promise<number> {
    return insertedId(await this.repo(m).insert(columnsOf(s)));
  }

  existingIds(ids: readonly number[], m?: EntityManager): Promise<number[]> {
    return existingIds(this.repo(m), ids);
  }

  /** False when there is no such status. */
  async update(id: number, changes: CallStatusChanges): Promise<boolean> {
    const set = columnsOf(changes);
    if (Object.keys(set).length === 0) return this.repo().existsBy({ id });
    const result = await this.repo().update({ id }, set);
    return (result.affected ?? 0) > 0;
  }
}
