import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/domain-error';
import { Page } from '../../common/envelope';
import { IdempotentWrites } from '../../common/idempotency/idempotent-writes';
import { isUniqueViolation } from '../../common/pg-errors';
import { SipEndpoint, normaliseSipNumber } from './domain/sip-endpoint';
import { SIP_NUMBER_CONSTRAINT, SipEndpointFields, SipEndpointsRepository } from './persistence/sip-endpoints.repository';
import { SIP_ENDPOINT_ERRORS } from './domain/sip-endpoints.errors';
import type { EntityManager } from 'typeorm';

export interface SipEndpointInput {
  number?: string;
  title?: string;
  isActive?: boolean;
}

const numberTaken = (number: string) => DomainError.conflict(SIP_ENDPOINT_ERRORS.NUMBER_TAKEN, `Virtual number ${number} already exists`);

function normalisedNumber(input: string): string {
  const number = normaliseSipNumber(input);
  if (number === null) throw DomainError.invalidField('number', 'must be a valid international phone number (E.164)', SIP_ENDPOINT_ERRORS.INVALID_NUMBER);
  return number;
}

@Injectable()
export class SipEndpointsService {
  constructor(
    private readonly endpoints: SipEndpointsRepository,
    private readonly idempotent: IdempotentWrites,
  ) {}

  async getEndpoint(id: number): Promise<SipEndpoint> {
    const endpoint = await this.endpoints.findById(id);
    if (!endpoint) throw DomainError.notFound('Sip endpoint', id, SIP_ENDPOINT_ERRORS.NOT_FOUND);
    return endpoint;
  }

  listEndpoints(filter: { isActive?: boolean }, offset: number, limit: number): Promise<Page<SipEndpoint>> {
    return this.endpoints.listPage(filter, offset, limit);
  }

  /** The number is stored normalised (E.164 with +); an existing number is a 409. */
  async createEndpoint(input: SipEndpointInput & { number: string; title: string }): Promise<number> {
    const number = normalisedNumber(input.number);
    return this.idempotent.transaction(
      async (m) => {
        const id = await this.endpoints.insert({ number, title: input.title, isActive: input.isActive }, m);
        if (id === null) throw numberTaken(number);
        return id;
      },
      (id) => ({ id }),
    );
  }

  async updateEndpoint(id: number, input: SipEndpointInput): Promise<void> {
    const patch: Partial<SipEndpointFields> = { title: input.title, isActive: input.isActive };
    if (input.number !== undefined) {
      patch.number = normalisedNumber(input.number);
      if (await this.endpoints.numberTaken(patch.number, id)) {
        // A missing endpoint is a 404 before the conflict its number would make.
        if ((await this.endpoints.existingIds([id])).length === 0) throw DomainError.notFound('Sip endpoint', id, SIP_ENDPOINT_ERRORS.NOT_FOUND);
        throw numberTaken(patch.number);
      }
    }
    let found: boolean;
    try {
      found = await this.endpoints.update(id, patch);
    } catch (err) {
      // A concurrent write took the number between the check and the update.
      if (isUniqueViolation(err, SIP_NUMBER_CONSTRAINT)) throw numberTaken(String(patch.number));
      throw err;
    }
    if (!found) throw DomainError.notFound('Sip endpoint', id, SIP_ENDPOINT_ERRORS.NOT_FOUND);
  }

  /** Which of `ids` exist, for other modules' reference checks; inside a transaction, pass its manager. */
  existingIds(ids: readonly number[], m?: EntityManager): Promise<number[]> {
    return this.endpoints.existingIds(ids, m);
  }
}
