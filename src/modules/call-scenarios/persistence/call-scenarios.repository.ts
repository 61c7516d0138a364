import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CallScenario, CallScenarioFields } from '../domain/call-scenario';
import { assignments, SqlParams } from '../../../database/counters/sql-params';

const COLUMN: Record<keyof CallScenarioFields, string> = { title: 'title', description: 'description', isActive: 'is_active' };
const SELECT = `SELECT id, title, description, is_active AS "isActive", created_at AS "createdAt", updated_at AS "updatedAt" FROM call_scenario`;

@Injectable()
export class CallScenariosRepository {
  constructor(private readonly ds: DataSource) {}

  async findById(id: number): Promise<CallScenario | null> {
    const rows: CallScenario[] = await this.ds.query(`${SELECT} WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  async listPage(filter: { isActive?: boolean }, offset: number, limit: number): Promise<{ rows: CallScenario[]; total: number }> {
    const where = filter.isActive === undefined ? '' : 'WHERE is_active = $1';
    const params = filter.isActive === undefined ? [] : [filter.isActive];
    const n = params.length;
    const [rows, count] = await Promise.all([
      this.ds.query(`${SELECT} ${where} ORDER BY id OFFSET $${n + 1} LIMIT $${n + 2}`, [...params, offset, limit]) as Promise<CallScenario[]>,
      this.ds.query(`SELECT count(*)::int AS n FROM call_scenario ${where}`, params) as Promise<{ n: number }[]>,
    ]);
    return { rows, total: count[0].n };
  }

  async insert(fields: CallScenarioFields, m: EntityManager = this.ds.manager): Promise<number> {
    const rows: { id: number }[] = await m.query(`INSERT INTO call_scenario (title, description, is_active) VALUES ($1, $2, $3) RETURNING id`, [
      fields.title,
      fields.description,
      fields.isActive,
    ]);
    return rows[0].id;
  }

  /** Changes the given fields; false when no such scenario. */
  async update(id: number, patch: Partial<CallScenarioFields>): Promise<boolean> {
    const p = new SqlParams();
    const sets = assignments(patch, COLUMN, p);
    // TypeORM returns [rows, affectedCount] for UPDATE on PostgreSQL.
    const [, affected]: [unknown[], number] = await this.ds.query(
      `UPDATE call_scenario SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = ${p.add(id)}`,
      p.values,
    );
    return affected > 0;
  }
}
