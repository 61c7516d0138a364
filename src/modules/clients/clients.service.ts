import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainError } from '../../common/domain-error';
import type { Page } from '../../common/envelope';
import { IdempotentWrites } from '../../common/idempotency/idempotent-writes';
import { isUniqueViolation } from '../../common/pg-errors';
import type { Client } from './domain/client';
import { CLIENT_ERRORS } from './domain/clients.errors';
import { CLIENT_NAME_INDEX, ClientsRepository } from './persistence/clients.repository';

const nameTaken = (name: string) => DomainError.conflict(CLIENT_ERRORS.NAME_TAKEN, `A client named '${name}' already exists`);

/** Clients of the call center (management, scope admin); other modules ask `existingIds` to check a clientId. */
@Injectable()
export class ClientsService {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly idempotent: IdempotentWrites,
  ) {}

  async getClient(id: number): Promise<Client> {
    const client = await this.clients.findById(id);
    if (!client) throw DomainError.notFound('Client', id, CLIENT_ERRORS.NOT_FOUND);
    return client;
  }

  listClients(offset: number, limit: number): Promise<Page<Client>> {
    return this.clients.listPage(offset, limit);
  }

  /** Creates a client; the name must be free (case-insensitively), else 409. */
  async createClient(name: string): Promise<number> {
    return this.idempotent.transaction(
      async (m) => {
        const id = await this.clients.insert(name, m);
        if (id === null) throw nameTaken(name);
        return id;
      },
      (id) => ({ id }),
    );
  }

  async renameClient(id: number, name: string): Promise<void> {
    if (await this.clients.nameTaken(name, id)) {
      // A missing client is a 404 before the conflict its name would make.
      if ((await this.clients.existingIds([id])).length === 0) throw DomainError.notFound('Client', id, CLIENT_ERRORS.NOT_FOUND);
      throw nameTaken(name);
    }
    let found: boolean;
    try {
      found = await this.clients.rename(id, name);
    } catch (err) {
      // A concurrent create or rename took the name between the check and the write.
      if (isUniqueViolation(err, CLIENT_NAME_INDEX)) throw nameTaken(name);
      throw err;
    }
    if (!found) throw DomainError.notFound('Client', id, CLIENT_ERRORS.NOT_FOUND);
  }

  /** Which of `ids` exist, for other modules' reference checks; inside a transaction, pass its manager. */
  existingIds(ids: readonly number[], m?: EntityManager): Promise<number[]> {
    return this.clients.existingIds(ids, m);
  }
}
