import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { DataSource } from 'typeorm';
import { DomainError } from '../../common/domain-error';
import { isDatabaseUnavailable, isUniqueViolation } from '../../common/pg-errors';
import { ApiKeyPrincipal, Scope, generateApiKey, hashApiKey, hashesEqual, keyPrefix } from './domain/api-key';
import { ApiKeysRepository } from './persistence/api-keys.repository';

interface CacheEntry {
  principal: ApiKeyPrincipal;
  expiresAt: number;
  verifiedAt: number;
}

/** What registering API_KEY found (see registerEnvKey). */
export type EnvKeyState =
  | { kind: 'registered'; previousStopsAt: Date | null }
  | { kind: 'active' }
  | { kind: 'superseded'; stopsAt: Date }
  | { kind: 'revoked' };

/** While the database is unreachable, a key verified this recently still authenticates (stale-if-error). */
const STALE_IF_ERROR_MS = 10 * 60_000;

/**
 * Verifies keys against their stored hashes. Verified keys are cached in process for
 * API_KEY_CACHE_TTL_MS (5 s by default): a revoked key stops working on every instance within that bound,
 * and this instance forgets at once a key it revokes itself. While the database is down, keys
 * verified in the last 10 minutes keep working, so operators still reach the health check.
 */
@Injectable()
export class ApiKeysService {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly cacheTtlMs: number;

  constructor(
    private readonly ds: DataSource,
    private readonly repo: ApiKeysRepository,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'apiKeyCacheTtlMs'>,
  ) {
    this.cacheTtlMs = config.apiKeyCacheTtlMs;
  }

  async verify(raw: string | undefined): Promise<ApiKeyPrincipal | null> {
    if (!raw || raw.length > 200) return null;
    const hash = hashApiKey(raw);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.principal;
    let candidates;
    try {
      candidates = await this.repo.findActiveByPrefix(keyPrefix(raw));
    } catch (err) {
      // Keep answering (e.g. the health check reporting the outage) for keys we know.
      if (cached && now - cached.verifiedAt < STALE_IF_ERROR_MS && isDatabaseUnavailable(err)) return cached.principal;
      throw err;
    }
    const row = candidates.find((c) => hashesEqual(c.keyHash, hash));
    if (!row) {
      this.cache.delete(hash);
      return null;
    }
    const principal: ApiKeyPrincipal = { id: row.id, name: row.name, scopes: row.scopes };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { principal, expiresAt: now + this.cacheTtlMs, verifiedAt: now });
    return principal;
  }

  /** Creates a key and returns it: the only moment it exists in clear. */
  async create(name: string, scopes: Scope[]): Promise<{ id: number; key: string }> {
    const key = generateApiKey();
    try {
      const id = await this.repo.insert(name, keyPrefix(key), hashApiKey(key), scopes);
      return { id, key };
    } catch (err) {
      if (isUniqueViolation(err, 'api_key_name_active_idx')) throw DomainError.conflict('API_KEY_NAME_TAKEN', `An active API key is already named '${name}'`);
      throw err;
    }
  }

  /**
   * Registers a key given by the operator (API_KEY). A key seen before is left as it is (a revoked
   * one is never re-activated); a new one becomes the key of that name, and the key it replaces
   * keeps working for `graceHours`, then is revoked. Registrations are serialised, so instances
   * starting at once with the old and the new key (a rolling deploy) agree: the newest key stays,
   * and an old instance restarting meanwhile does not bring its key back to the front.
   */
  async registerEnvKey(name: string, key: string, scopes: Scope[], graceHours: number): Promise<EnvKeyState> {
    const hash = hashApiKey(key);
    return this.ds.transaction(async (m) => {
      await this.repo.lockRegistration(m);
      const known = await this.repo.findByHash(m, hash);
      if (known?.revoked) return { kind: 'revoked' };
      if (known?.revokedAt) return { kind: 'superseded', stopsAt: known.revokedAt };
      if (known) return { kind: 'active' };
      const previousStopsAt = await this.repo.scheduleRevocation(m, name, graceHours);
      await this.repo.insert(name, keyPrefix(key), hash, scopes, m);
      return { kind: 'registered', previousStopsAt };
    });
  }

  async revoke(idOrName: string): Promise<number> {
    const n = await this.repo.revoke(idOrName);
    this.cache.clear();
    return n;
  }

  list() {
    return this.repo.list();
  }

  countActive() {
    return this.repo.countActive();
  }
}
