import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, Repository } from 'typeorm';
import type { Page } from '../../../common/envelope';
import { existingIds } from '../../../database/existing-ids';
import { returnedId } from '../../../database/insert-result';
import { findPage } from '../../../database/page';
import type { Client } from '../domain/client';
import { ClientEntity } from './client.entity';

/** The unique index on lower(name): client names are unique regardless of case. */
export const CLIENT_NAME_INDEX = 'client_name_lower_key';

@Injectable()
export class ClientsRepository {
  constructor(private readonly ds: DataSource) {}

  private clients(m: EntityManager = this.ds.manager): Repository<ClientEntity> {
    return m.getRepository(ClientEntity);
  }

  findById(id: number): Promise<Client | null> {
    return this.clients().findOneBy({ id });
  }

  listPage(offset: number, limit: number): Promise<Page<Client>> {
    return findPage({ repository: this.clients(), find: { order: { id: 'ASC' } } }, offset, limit);
  }

  /** Inserts a client; null when the name is taken (case-insensitively, CLIENT_NAME_INDEX). */
  async insert(name: string, m: EntityManager = this.ds.manager): Promise<number | null> {
    const result = await this.clients(m).createQueryBuilder().insert().values({ name }).orIgnore().returning(['id']).updateEntity(false).execute();
    return returnedId(result);
  }

  /** Whether another client than `exceptId` has this name (case-insensitively). */
  nameTaken(name: string, exceptId: number): Promise<boolean> {
    return this.clients().createQueryBuilder('c').where('lower(c.name) = lower(:name)', { name }).andWhere('c.id <> :exceptId', { exceptId }).getExists();
  }

  /** Renames (and sets updated_at); false when no such client. A taken name raises a unique violation of CLIENT_NAME_INDEX. */
  async rename(id: number, name: string): Promise<boolean> {
    const result = await this.clients().update({ id }, { name });
    return (result.affected ?? 0) > 0;
  }

  /** Which of `ids` exist (reference checks of other modules), on `m` when given. */
  existingIds(ids: readonly number[], m?: EntityManager): Promise<number[]> {
    return existingIds(this.clients(m), ids);
  }
}
