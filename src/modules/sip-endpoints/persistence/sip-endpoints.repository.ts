import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SipEndpoint } from '../domain/sip-endpoint';
import { assignments, SqlParams } from '../../../database/counters/sql-params';

export type SipEndpointFields = Pick<SipEndpoint, 'number' | 'title' | 'isActive'>;

const COLUMN: Record<keyof SipEndpointFields, string> = { number: 'number', title: 'title', isActive: 'is_active' };
const SELECT = `SELECT id, number, title, is_active AS "isActive", created_at AS "createdAt", updated_at AS "updatedAt" FROM sip_endpoint`;

/** The unique constraint on sip_endpoint.number. */
export const SIP_NUMBER_CONSTRAINT = 'sip_endpoint_number_key';

@Injectable()
export class SipEndpointsRepository {
  constructor(private readonly ds: DataSource) {}

  async findById(id: number): Promise<SipEndpoint | null> {
    const rows: SipEndpoint[] = await this.ds.query(`${SELECT} WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  async listPage(filter: { isActive?: boolean }, offset: number, limit: number): Promise<{ rows: SipEndpoint[]; total: number }> {
    const where = filter.isActive === undefined ? '' : 'WHERE is_active = $1';
    const params = filter.isActive === undefined ? [] : [filter.isActive];
    const n = params.length;
    const [rows, count] = await Promise.all([
      this.ds.query(`${SELECT} ${where} ORDER BY id OFFSET $${n + 1} LIMIT $${n + 2}`, [...params, offset, limit]) as Promise<SipEndpoint[]>,
      this.ds.query(`SELECT count(*)::int AS n FROM sip_endpoint ${where}`, params) as Promise<{ n: number }[]>,
    ]);
    return { rows, total: count[0].n };
  }

  /** Inserts a number; null when the number exists already. */
  async insert(fields: Pick<SipEndpointFields, 'number' | 'title'> & Partial<SipEndpointFields>, m: EntityManager = this.ds.manager): Promise<number | null> {
    const rows: { id: number }[] = await m.query(
      `INSERT INTO sip_endpoint (number, title, is_active) VALUES ($1, $2, $3) ON CONFLICT (number) DO NOTHING RETURNING id`,
      [fields.number, fields.title, fields.isActive ?? true],
    );
    return rows[0]?.id ?? null;
  }

  async numberTaken(number: string, exceptId: number): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(`SELECT 1 FROM sip_endpoint WHERE number = $1 AND id <> $2`, [number, exceptId]);
    return rows.length > 0;
  }

  /** Changes the given fields; false when no such endpoint. A taken number raises a unique violation of SIP_NUMBER_CONSTRAINT. */
  async update(id: number, patch: Partial<SipEndpointFields>): Promise<boolean> {
    const p = new SqlParams();
    const sets = assignments(patch, COLUMN, p);
    // TypeORM returns [rows, affectedCount] for UPDATE on PostgreSQL.
    const [, affected]: [unknown[], number] = await this.ds.query(
      `UPDATE sip_endpoint SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = ${p.add(id)}`,
      p.values,
    );
    return affected > 0;
  }
}
