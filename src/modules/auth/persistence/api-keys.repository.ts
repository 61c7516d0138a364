import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Scope } from '../domain/api-key';

export interface ApiKeyRow {
  id: number;
  name: string;
  keyHash: string;
  scopes: Scope[];
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const COLUMNS = `id, name, key_hash AS "keyHash", scopes, created_at AS "createdAt", revoked_at AS "revokedAt", last_used_at AS "lastUsedAt"`;

/** Plain SQL: the table is tiny and the queries are on the auth hot path. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly ds: DataSource) {}

  async findActiveByPrefix(prefix: string): Promise<ApiKeyRow[]> {
    return this.ds.query(`SELECT ${COLUMNS} FROM api_key WHERE key_prefix = $1 AND revoked_at IS NULL`, [prefix]);
  }

  async findActiveByHash(hash: string): Promise<ApiKeyRow | null> {
    const rows: ApiKeyRow[] = await this.ds.query(`SELECT ${COLUMNS} FROM api_key WHERE key_hash = $1 AND revoked_at IS NULL`, [hash]);
    return rows[0] ?? null;
  }

  async insert(name: string, prefix: string, hash: string, scopes: Scope[]): Promise<number> {
    const rows: { id: number }[] = await this.ds.query(
      `INSERT INTO api_key (name, key_prefix, key_hash, scopes) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key_hash) DO UPDATE SET scopes = EXCLUDED.scopes, revoked_at = NULL RETURNING id`,
      [name, prefix, hash, scopes],
    );
    return rows[0].id;
  }

  async list(): Promise<ApiKeyRow[]> {
    return this.ds.query(`SELECT ${COLUMNS} FROM api_key ORDER BY id`);
  }

  async countActive(): Promise<number> {
    const rows: { n: number }[] = await this.ds.query(`SELECT count(*)::int AS n FROM api_key WHERE revoked_at IS NULL`);
    return rows[0].n;
  }

  async revoke(idOrName: string): Promise<number> {
    const byId = /^\d+$/.test(idOrName);
    // TypeORM returns [rows, affectedCount] for UPDATE on PostgreSQL.
    const [, affected]: [unknown[], number] = await this.ds.query(
      `UPDATE api_key SET revoked_at = now() WHERE revoked_at IS NULL AND ${byId ? 'id = $1::int' : 'name = $1'}`,
      [idOrName],
    );
    return affected;
  }

  async touch(id: number): Promise<void> {
    await this.ds.query(`UPDATE api_key SET last_used_at = now() WHERE id = $1`, [id]);
  }
}
