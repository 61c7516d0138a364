import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, Not, Repository } from 'typeorm';
import { definedFields } from '../../../common/defined-fields';
import { SipEndpoint } from '../domain/sip-endpoint';
import { SipEndpointEntity } from './sip-endpoint.entity';
import { returnedId } from '../../../database/insert-result';
import { existingIds } from '../../../database/existing-ids';
import type { Page } from '../../../common/envelope';
import { findPage } from '../../../database/page';

export type SipEndpointFields = Pick<SipEndpoint, 'number' | 'title' | 'isActive'>;

/** The unique constraint on sip_endpoint.number. */
export const SIP_NUMBER_CONSTRAINT = 'sip_endpoint_number_key';

@Injectable()
export class SipEndpointsRepository {
  constructor(private readonly ds: DataSource) {}

  private endpoints(m: EntityManager = this.ds.manager): Repository<SipEndpointEntity> {
    return m.getRepository(SipEndpointEntity);
  }

  findById(id: number): Promise<SipEndpoint | null> {
    return this.endpoints().findOneBy({ id });
  }

  listPage(filter: { isActive?: boolean }, offset: number, limit: number): Promise<Page<SipEndpoint>> {
    return findPage({ repository: this.endpoints(), find: { where: definedFields(filter), order: { id: 'ASC' } } }, offset, limit);
  }

  /** Inserts a number; null when the number exists already. */
  async insert(fields: Pick<SipEndpointFields, 'number' | 'title'> & Partial<SipEndpointFields>, m: EntityManager = this.ds.manager): Promise<number | null> {
    const result = await this.endpoints(m)
      .createQueryBuilder()
      .insert()
      .values({ number: fields.number, title: fields.title, isActive: fields.isActive ?? true })
      .orIgnore()
      .returning(['id'])
      .updateEntity(false)
      .execute();
    return returnedId(result);
  }

  numberTaken(number: string, exceptId: number): Promise<boolean> {
    return this.endpoints().existsBy({ number, id: Not(exceptId) });
  }

  /** Changes the given fields (and updated_at); false when no such endpoint. A taken number raises a unique violation of SIP_NUMBER_CONSTRAINT. */
  async update(id: number, patch: Partial<SipEndpointFields>): Promise<boolean> {
    const result = await this.endpoints().update({ id }, definedFields(patch));
    return (result.affected ?? 0) > 0;
  }

  /** Which of `ids` exist (reference checks of other modules), on `m` when given. */
  existingIds(ids: readonly number[], m?: EntityManager): Promise<number[]> {
    return existingIds(this.endpoints(m), ids);
  }
}
