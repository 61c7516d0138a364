import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AccessGroup, User, UserFields } from '../domain/user';
import { assignments, SqlParams } from '../../../database/counters/sql-params';

/** Domain field -> app_user column, for every writable field. */
const COLUMN: Record<keyof UserFields, string> = {
  name: 'name',
  lastName: 'last_name',
  email: 'email',
  isActive: 'is_active',
  accessGroup: 'access_group',
  webRtcIsEnabled: 'web_rtc_is_enabled',
  interfaceLanguageCode: 'interface_language_code',
  languageSkillsCode: 'language_skills_code',
  autoAnswer: 'auto_answer',
  phoneMode: 'phone_mode',
  avatar: 'avatar',
  telegramNotificationsEnabled: 'telegram_notifications_enabled',
  telegramChatId: 'telegram_chat_id',
  telegramNotificationsPriority: 'telegram_notifications_priority',
  emailNotificationsEnabled: 'email_notifications_enabled',
  emailNotificationsPriority: 'email_notifications_priority',
  lastLoginAt: 'last_login_at',
  lastActivityAt: 'last_activity_at',
};

const SELECT = `SELECT id, ${Object.entries(COLUMN)
  .map(([field, column]) => `${column} AS "${field}"`)
  .join(', ')}, created_at AS "createdAt", updated_at AS "updatedAt" FROM app_user`;

export interface UserFilter {
  accessGroup?: AccessGroup;
  isActive?: boolean;
}

/** The unique index that makes e-mails unique regardless of case. */
export const USER_EMAIL_INDEX = 'app_user_email_idx';

function where(filter: UserFilter): { sql: string; params: unknown[] } {
  const conds: string[] = [];
  const params: unknown[] = [];
  if (filter.accessGroup !== undefined) {
    params.push(filter.accessGroup);
    conds.push(`access_group = $${params.length}`);
  }
  if (filter.isActive !== undefined) {
    params.push(filter.isActive);
    conds.push(`is_active = $${params.length}`);
  }
  return { sql: conds.length ? `WHERE ${conds.join(' AND ')}` : '', params };
}

@Injectable()
export class UsersRepository {
  constructor(private readonly ds: DataSource) {}

  async findById(id: number): Promise<User | null> {
    const rows: User[] = await this.ds.query(`${SELECT} WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  async listPage(filter: UserFilter, offset: number, limit: number): Promise<{ rows: User[]; total: number }> {
    const w = where(filter);
    const n = w.params.length;
    const [rows, count] = await Promise.all([
      this.ds.query(`${SELECT} ${w.sql} ORDER BY id OFFSET $${n + 1} LIMIT $${n + 2}`, [...w.params, offset, limit]) as Promise<User[]>,
      this.ds.query(`SELECT count(*)::int AS n FROM app_user ${w.sql}`, w.params) as Promise<{ n: number }[]>,
    ]);
    return { rows, total: count[0].n };
  }

  /** Inserts a user; null when the e-mail (case-insensitively) is taken. */
  async insert(fields: Partial<UserFields> & { email: string }, manager: EntityManager = this.ds.manager): Promise<number | null> {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined) as [keyof UserFields, unknown][];
    const rows: { id: number }[] = await manager.query(
      `INSERT INTO app_user (${entries.map(([f]) => COLUMN[f]).join(', ')})
       VALUES (${entries.map((_, i) => `$${i + 1}`).join(', ')})
       ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`,
      entries.map(([, v]) => v),
    );
    return rows[0]?.id ?? null;
  }

  /** Whether another user than `exceptId` has this e-mail (case-insensitively). */
  async emailTaken(email: string, exceptId: number): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(`SELECT 1 FROM app_user WHERE lower(email) = lower($1) AND id <> $2`, [email, exceptId]);
    return rows.length > 0;
  }

  /** Changes the given fields; false when no such user. A taken e-mail raises a unique violation of USER_EMAIL_INDEX. */
  async update(id: number, patch: Partial<UserFields>): Promise<boolean> {
    const p = new SqlParams();
    const sets = assignments(patch, COLUMN, p);
    // TypeORM returns [rows, affectedCount] for UPDATE on PostgreSQL.
    const [, affected]: [unknown[], number] = await this.ds.query(
      `UPDATE app_user SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = ${p.add(id)}`,
      p.values,
    );
    return affected > 0;
  }
}
