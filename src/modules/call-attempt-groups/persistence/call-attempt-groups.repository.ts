import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CallAttemptGroup, CallAttemptGroupFields } from '../domain/call-attempt-group';

const COLUMN: Record<keyof CallAttemptGroupFields, string> = {
  title: 'title',
  intervals: 'intervals',
  resetAttemptsEnabled: 'reset_attempts_enabled',
  repeatLastInterval: 'repeat_last_interval',
};
const SELECT = `SELECT id, title, intervals, is_default AS "isDefault", reset_attempts_enabled AS "resetAttemptsEnabled",
  repeat_last_interval AS "repeatLastInterval", created_at AS "createdAt", updated_at AS "updatedAt" FROM call_attempt_group`;

/** Serialises every change of which group is the default (a transaction-scoped advisory lock). */
const DEFAULT_LOCK_KEY = 1_763_785_001;

@Injectable()
export class CallAttemptGroupsRepository {
  constructor(private readonly ds: DataSource) {}

  async findById(id: number): Promise<CallAttemptGroup | null> {
    const rows: CallAttemptGroup[] = await this.ds.query(`${SELECT} WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  async listPage(offset: number, limit: number): Promise<{ rows: CallAttemptGroup[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.ds.query(`${SELECT} ORDER BY id OFFSET $1 LIMIT $2`, [offset, limit]) as Promise<CallAttemptGroup[]>,
      this.ds.query(`SELECT count(*)::int AS n FROM call_attempt_group`) as Promise<{ n: number }[]>,
    ]);
    return { rows, total: count[0].n };
  }

  /**
   * Takes the default-group lock for the rest of the transaction. Without it two concurrent
   * "make X default" could both clear the old default and then collide on the one-default index.
   */
  async lockDefault(m: EntityManager): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock($1)`, [DEFAULT_LOCK_KEY]);
  }

  async someGroupIsDefault(m: EntityManager): Promise<boolean> {
    const rows: unknown[] = await m.query(`SELECT 1 FROM call_attempt_group WHERE is_default LIMIT 1`);
    return rows.length > 0;
  }

  /** The group's default flag, locking its row; null when no such group. */
  async lockForUpdate(id: number, m: EntityManager): Promise<{ isDefault: boolean } | null> {
    const rows: { isDefault: boolean }[] = await m.query(`SELECT is_default AS "isDefault" FROM call_attempt_group WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  }

  async clearDefaultExcept(id: number | null, m: EntityManager): Promise<void> {
    await m.query(`UPDATE call_attempt_group SET is_default = false, updated_at = now() WHERE is_default AND id IS DISTINCT FROM $1`, [id]);
  }

  async insert(fields: CallAttemptGroupFields & { isDefault: boolean }, m: EntityManager): Promise<number> {
    const rows: { id: number }[] = await m.query(
      `INSERT INTO call_attempt_group (title, intervals, is_default, reset_attempts_enabled, repeat_last_interval)
       VALUES ($1, $2::int[], $3, $4, $5) RETURNING id`,
      [fields.title, fields.intervals, fields.isDefault, fields.resetAttemptsEnabled, fields.repeatLastInterval],
    );
    return rows[0].id;
  }

  async update(id: number, patch: Partial<CallAttemptGroupFields> & { isDefault?: boolean }, m: EntityManager): Promise<void> {
    const { isDefault, ...fields } = patch;
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined) as [keyof CallAttemptGroupFields, unknown][];
    const sets = entries.map(([f], i) => `${COLUMN[f]} = $${i + 2}${f === 'intervals' ? '::int[]' : ''}`);
    const params: unknown[] = [id, ...entries.map(([, v]) => v)];
    if (isDefault !== undefined) {
      params.push(isDefault);
      sets.push(`is_default = $${params.length}`);
    }
    await m.query(`UPDATE call_attempt_group SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1`, params);
  }
}
