import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Scope } from '../domain/api-key';

export interface ApiKeyRow {
  id: number;
  name: string;
  keyHash: string;
  scopes: Scope[];
  createdAt: Date;
  /** In the future while a replaced API_KEY is in its grace period: the moment it stops working. */
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const COLUMNS = `id, name, key_hash AS "keyHash", scopes, created_at AS "createdAt", revoked_at AS "revokedAt", last_used_at AS "lastUsedAt"`;
/** A key authenticates until its revocation time (a revocation may be scheduled ahead: rotation grace). */
const ACTIVE = `(revoked_at IS NULL OR revoked_at > now())`;

/** Plain SQL: the table is tiny and the queries are on the auth hot path. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly ds: DataSource) {}

  async findActiveByPrefix(prefix: string): Promise<ApiKeyRow[]> {
    return this.ds.query(`SELECT ${COLUMNS} FROM api_key WHERE key_prefix = $1 AND ${ACTIVE}`, [prefix]);
  }

  /** The key with this hash whatever its state, and whether it is revoked by now. */
  async findByHash(m: EntityManager, hash: string): Promise<(ApiKeyRow & { revoked: boolean }) | null> {
    const rows: (ApiKeyRow & { revoked: boolean })[] = await m.query(
      `SELECT ${COLUMNS}, NOT ${ACTIVE} AS revoked FROM api_key WHERE key_hash = $1`,
      [hash],
    );
    return rows[0] ?? null;
  }

  async insert(name: string, prefix: string, hash: string, scopes: Scope[], m: EntityManager = this.ds.manager): Promise<number> {
    const rows: { id: number }[] = await m.query(
      `INSERT INTO api_key (name, key_prefix, key_hash, scopes) VALUES ($1, $2, $3, $4) RETURNING id`,
      [name, prefix, hash, scopes],
    );
    return rows[0].id;
  }

  /** Serialises API_KEY registrations of instances starting at once (until the transaction ends). */
  async lockRegistration(m: EntityManager): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtext('api_key.env_registration'))`);
  }

  /** Schedules the revocation of the active (not yet scheduled) keys of that name; returns when they stop. */
  async scheduleRevocation(m: EntityManager, name: string, graceHours: number): Promise<Date | null> {
    // TypeORM returns [rows, affectedCount] for UPDATE on PostgreSQL.
    const [rows]: [{ revokedAt: Date }[], number] = await m.query(
      `UPDATE api_key SET revoked_at = now() + make_interval(hours => $2) WHERE name = $1 AND revoked_at IS NULL RETURNING revoked_at AS "revokedAt"`,
      [name, graceHours],
    );
    return rows[0]?.revokedAt ?? null;
  }

  async list(): Promise<ApiKeyRow[]> {
    return this.ds.query(`SELECT ${COLUMNS} FROM api_key ORDER BY id`);
  }

  async countActive(): Promise<number> {
    const rows: { n: number }[] = await this.ds.query(`SELECT count(*)::int AS n FROM api_key WHERE ${ACTIVE}`);
    return rows[0].n;
  }

  /** Revokes now (also a key whose revocation was scheduled for later). */
  async revoke(idOrName: string): Promise<number> {
    const byId = /^\d+$/.test(idOrName);
    // TypeORM returns [rows, affectedCount] for UPDATE on PostgreSQL.
    const [, affected]: [unknown[], number] = await this.ds.query(
      `UPDATE api_key SET revoked_at = now() WHERE ${ACTIVE} AND ${byId ? 'id = $1::int' : 'name = $1'}`,
      [idOrName],
    );
    return affected;
  }

  async touch(id: number): Promise<void> {
    await this.ds.query(`UPDATE api_key SET last_used_at = now() WHERE id = $1`, [id]);
  }
}
