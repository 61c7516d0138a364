import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { definedFields } from '../../../common/defined-fields';
import { CallScenario, CallScenarioFields } from '../domain/call-scenario';
import { CallScenarioEntity } from './call-scenario.entity';
import { insertedId } from '../../../database/insert-result';
import { existingIds } from '../../../database/existing-ids';
import type { Page } from '../../../common/envelope';
import { findPage } from '../../../database/page';

@Injectable()
export class CallScenariosRepository {
  constructor(private readonly ds: DataSource) {}

  private scenarios(m: EntityManager = this.ds.manager): Repository<CallScenarioEntity> {
    return m.getRepository(CallScenarioEntity);
  }

  findById(id: number): Promise<CallScenario | null> {
    return this.scenarios().findOneBy({ id });
  }

  listPage(filter: { isActive?: boolean }, offset: number, limit: number): Promise<Page<CallScenario>> {
    return findPage({ repository: this.scenarios(), find: { where: definedFields(filter), order: { id: 'ASC' } } }, offset, limit);
  }

  async insert(fields: CallScenarioFields, m: EntityManager = this.ds.manager): Promise<number> {
    const result = await this.scenarios(m).insert({ title: fields.title, description: fields.description, isActive: fields.isActive });
    return insertedId(result);
  }

  /** Changes the given fields (and updated_at); false when no such scenario. */
  async update(id: number, patch: Partial<CallScenarioFields>): Promise<boolean> {
    const result = await this.scenarios().update({ id }, definedFields(patch));
    return (result.affected ?? 0) > 0;
  }

  /** Which of `ids` exist (reference checks of other modules), on `m` when given. */
  existingIds(ids: readonly number[], m?: EntityManager): Promise<number[]> {
    return existingIds(this.scenarios(m), ids);
  }
}
