import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/domain-error';
import { Page } from '../../common/envelope';
import { IdempotentWrites } from '../../common/idempotency/idempotent-writes';
import { CallScenario, CallScenarioFields } from './domain/call-scenario';
import { CallScenariosRepository } from './persistence/call-scenarios.repository';
import { CALL_SCENARIO_ERRORS } from './domain/call-scenarios.errors';
import type { EntityManager } from 'typeorm';

@Injectable()
export class CallScenariosService {
  constructor(
    private readonly scenarios: CallScenariosRepository,
    private readonly idempotent: IdempotentWrites,
  ) {}

  async getScenario(id: number): Promise<CallScenario> {
    const scenario = await this.scenarios.findById(id);
    if (!scenario) throw DomainError.notFound('Call scenario', id, CALL_SCENARIO_ERRORS.NOT_FOUND);
    return scenario;
  }

  listScenarios(filter: { isActive?: boolean }, offset: number, limit: number): Promise<Page<CallScenario>> {
    return this.scenarios.listPage(filter, offset, limit);
  }

  async createScenario(input: Partial<CallScenarioFields> & { title: string }): Promise<number> {
    return this.idempotent.transaction(
      (m) => this.scenarios.insert({ title: input.title, description: input.description ?? '', isActive: input.isActive ?? true }, m),
      (id) => ({ id }),
    );
  }

  async updateScenario(id: number, patch: Partial<CallScenarioFields>): Promise<void> {
    const found = await this.scenarios.update(id, { title: patch.title, description: patch.description, isActive: patch.isActive });
    if (!found) throw DomainError.notFound('Call scenario', id, CALL_SCENARIO_ERRORS.NOT_FOUND);
  }

  /** Which of `ids` exist, for other modules' reference checks; inside a transaction, pass its manager. */
  existingIds(ids: readonly number[], m?: EntityManager): Promise<number[]> {
    return this.scenarios.existingIds(ids, m);
  }
}
