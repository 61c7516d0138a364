import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { DataSource } from 'typeorm';
import { Cache } from '../../common/cache';
import { DomainError } from '../../common/domain-error';
import { isDatabaseUnavailable, isUniqueViolation } from '../../common/pg-errors';
import { ClientsService } from '../clients/clients.service';
import type { ApiKeyPrincipal, Scope } from '../../common/auth-context';
import { clientKeyScopeErrors, generateApiKey, hashApiKey, hashesEqual, keyPrefix } from './domain/api-key';
import { ApiKeysRepository } from './persistence/api-keys.repository';
import { AUTH_ERRORS } from './domain/auth.errors';

/** What registering API_KEY found (see registerEnvKey). */
export type EnvKeyState =
  { kind: 'registered'; previousStopsAt: Date | null } | { kind: 'active' } | { kind: 'superseded'; stopsAt: Date } | { kind: 'revoked' };

/** While the database is unreachable, a key verified this recently still authenticates (stale-if-error). */
const STALE_IF_ERROR_MS = 10 * 60_000;
/** Keys remembered per instance (by hash): far more than any deployment has. */
const CACHE_MAX_KEYS = 10_000;

/**
 * Verifies keys against their stored hashes, caching verified keys per instance for API_KEY_CACHE_TTL_MS (5 s by default): a
 * revoked key stops working everywhere within that bound, at once on the instance revoking it. While the database is down,
 * keys verified in the last 10 minutes keep working, so operators still reach the health check.
 */
@Injectable()
export class ApiKeysService {
  /** Keys verified within API_KEY_CACHE_TTL_MS: served without a query. */
  private readonly verified: Cache<string, ApiKeyPrincipal>;
  /** Keys verified within STALE_IF_ERROR_MS: served only while the database is unreachable. */
  private readonly lastKnown = new Cache<string, ApiKeyPrincipal>({ ttlMs: STALE_IF_ERROR_MS, max: CACHE_MAX_KEYS });

  constructor(
    private readonly ds: DataSource,
    private readonly repo: ApiKeysRepository,
    // Only the existence check of a client key's client (the CLI passes the clients repository).
    @Inject(ClientsService) private readonly clients: Pick<ClientsService, 'existingIds'>,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'apiKeyCacheTtlMs'>,
  ) {
    this.verified = new Cache({ ttlMs: config.apiKeyCacheTtlMs, max: CACHE_MAX_KEYS });
  }

  async verify(raw: string | undefined): Promise<ApiKeyPrincipal | null> {
    if (!raw || raw.length > 200) return null;
    const hash = hashApiKey(raw);
    const cached = this.verified.get(hash);
    if (cached) return cached;
    let candidates;
    try {
      candidates = await this.repo.findActiveByPrefix(keyPrefix(raw));
    } catch (err) {
      // Keep answering (e.g. the health check reporting the outage) for keys we know.
      const known = this.lastKnown.get(hash);
      if (known && isDatabaseUnavailable(err)) return known;
      throw err;
    }
    const row = candidates.find((c) => hashesEqual(c.keyHash, hash));
    if (!row) {
      this.lastKnown.delete(hash);
      return null;
    }
    const principal: ApiKeyPrincipal = { id: row.id, name: row.name, scopes: row.scopes, clientId: row.clientId };
    this.verified.set(hash, principal);
    this.lastKnown.set(hash, principal);
    return principal;
  }

  /**
   * Creates a key and returns it: the only moment it exists in clear. With `clientId` it is a client
   * key: scope api only, and the client must exist.
   */
  async create(name: string, scopes: Scope[], clientId: number | null = null): Promise<{ id: number; key: string }> {
    const errors = clientKeyScopeErrors(scopes, clientId);
    if (clientId !== null && (await this.clients.existingIds([clientId])).length === 0) errors.push({ field: 'clientId', message: `unknown id: ${clientId}` });
    if (errors.length) throw DomainError.validation(errors);
    const key = generateApiKey();
    try {
      const id = await this.repo.insert({ name, keyPrefix: keyPrefix(key), keyHash: hashApiKey(key), scopes, clientId });
      return { id, key };
    } catch (err) {
      if (isUniqueViolation(err, 'api_key_name_active_idx'))
        throw DomainError.conflict(AUTH_ERRORS.API_KEY_NAME_TAKEN, `An active API key is already named '${name}'`);
      throw err;
    }
  }

  /**
   * Registers the operator's key (API_KEY). A known key is left as it is (a revoked one never re-activated); a new one becomes the
   * key of that name, the one it replaces working for `graceHours` more. Registrations are serialised, so instances starting
   * with old and new keys at once (a rolling deploy) agree: the newest key stays, and a restarting old instance does not bring its key back.
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
      await this.repo.insert({ name, keyPrefix: keyPrefix(key), keyHash: hash, scopes, clientId: null }, m);
      return { kind: 'registered', previousStopsAt };
    });
  }

  async revoke(idOrName: string): Promise<number> {
    const n = await this.repo.revoke(idOrName);
    this.verified.clear();
    this.lastKnown.clear();
    return n;
  }

  /** Every key, oldest first (the CLI's list). */
  list() {
    return this.repo.list();
  }

  /** One page of keys by id, with the exact total (GET /v2/api-key/). */
  listPage(offset: number, limit: number) {
    return this.repo.listPage(offset, limit);
  }

  countActive() {
    return this.repo.countActive();
  }
}
