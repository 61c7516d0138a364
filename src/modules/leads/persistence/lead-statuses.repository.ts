import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { assignments, SqlParams } from '../../../database/counters/sql-params';
import type { CallStatus, CallStatusCategory, LeadStatus, LeadStatusCategory } from '../domain/lead-status';

const LEAD_COLUMNS = `id, code, title, category, is_default AS "isDefault"`;
const CALL_COLUMNS = `id, code, title, category, is_callback AS "isCallback"`;

export interface LeadStatusChanges {
  code?: string;
  title?: string;
  category?: LeadStatusCategory;
  isDefault?: boolean;
}

export interface CallStatusChanges {
  code?: string;
  title?: string;
  category?: CallStatusCategory;
  isCallback?: boolean;
}

const LEAD_COLUMN: Record<keyof LeadStatusChanges, string> = { code: 'code', title: 'title', category: 'category', isDefault: 'is_default' };
const CALL_COLUMN: Record<keyof CallStatusChanges, string> = { code: 'code', title: 'title', category: 'category', isCallback: 'is_callback' };

@Injectable()
export class LeadStatusesRepository {
  constructor(private readonly ds: DataSource) {}

  listLeadStatuses(m: EntityManager = this.ds.manager): Promise<LeadStatus[]> {
    return m.query(`SELECT ${LEAD_COLUMNS} FROM lead_status ORDER BY id`);
  }

  listCallStatuses(): Promise<CallStatus[]> {
    return this.ds.query(`SELECT ${CALL_COLUMNS} FROM call_status ORDER BY id`);
  }

  async lockLeadStatus(m: EntityManager, id: number): Promise<LeadStatus | null> {
    const rows: LeadStatus[] = await m.query(`SELECT ${LEAD_COLUMNS} FROM lead_status WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  }

  async findCallStatus(id: number): Promise<CallStatus | null> {
    const rows: CallStatus[] = await this.ds.query(`SELECT ${CALL_COLUMNS} FROM call_status WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** Takes the default flag from every other status (one statement, inside the caller's transaction). */
  async clearOtherDefaults(m: EntityManager, keepId: number): Promise<void> {
    await m.query(`UPDATE lead_status SET is_default = false WHERE is_default AND id <> $1`, [keepId]);
  }

  async insertLeadStatus(m: EntityManager, s: Required<Pick<LeadStatusChanges, 'code' | 'title' | 'category'>>): Promise<number> {
    const rows: { id: number }[] = await m.query(`INSERT INTO lead_status (code, title, category) VALUES ($1, $2, $3) RETURNING id`, [s.code, s.title, s.category]);
    return rows[0].id;
  }

  async updateLeadStatus(m: EntityManager, id: number, changes: LeadStatusChanges): Promise<void> {
    const p = new SqlParams();
    const sets = assignments(changes, LEAD_COLUMN, p);
    if (sets.length) await m.query(`UPDATE lead_status SET ${sets.join(', ')} WHERE id = ${p.add(id)}`, p.values);
  }

  async insertCallStatus(s: Required<CallStatusChanges>, m: EntityManager = this.ds.manager): Promise<number> {
    const rows: { id: number }[] = await m.query(
      `INSERT INTO call_status (code, title, category, is_callback) VALUES ($1, $2, $3, $4) RETURNING id`,
      [s.code, s.title, s.category, s.isCallback],
    );
    return rows[0].id;
  }

  /** False when there is no such status. */
  async updateCallStatus(id: number, changes: CallStatusChanges): Promise<boolean> {
    const p = new SqlParams();
    const sets = assignments(changes, CALL_COLUMN, p);
    if (sets.length === 0) return (await this.findCallStatus(id)) !== null;
    // TypeORM returns [rows, affectedCount] for UPDATE on PostgreSQL.
    const [, affected]: [unknown[], number] = await this.ds.query(`UPDATE call_status SET ${sets.join(', ')} WHERE id = ${p.add(id)}`, p.values);
    return affected > 0;
  }
}
