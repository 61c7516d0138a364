import { randomBytes } from 'node:crypto';
import { LoggerService, Logger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { AppConfig } from '../src/config/app.config';
import { ApiKeysService } from '../src/modules/auth/api-keys.service';
import { bootstrapApiKey, ENV_KEY_NAME } from '../src/modules/auth/bootstrap-api-key';
import { SCOPES } from '../src/common/auth-context';
import { hashApiKey, keyPrefix } from '../src/modules/auth/domain/api-key';
import { createSiblingApp, createTestApp, TestApp } from './support/test-app';

const newKey = () => `ops-${randomBytes(24).toString('base64url')}`;

/**
 * API_KEY rotation across instances on one database: an instance with a new API_KEY starts (the previous key works
 * for API_KEY_ROTATION_GRACE_HOURS), an old instance restarting mid-rollout does not bring its key back to the front,
 * and a revoked key stays revoked through restarts.
 */
describe('API_KEY rotation', () => {
  let t: TestApp;
  const started: NestExpressApplication[] = [];
  let lines: string[] = [];
  const capture: LoggerService = {
    log: (m: unknown) => void lines.push(String(m)),
    warn: (m: unknown) => void lines.push(String(m)),
    error: (m: unknown) => void lines.push(String(m)),
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    Logger.overrideLogger(['error']);
    for (const app of started) await app.close();
    await t.close();
  });

  /** An instance started with API_KEY=key: the app, then the same start-up step main.ts runs. */
  async function startWith(key: string, overrides: Partial<AppConfig> = {}): Promise<string[]> {
    const app = await createSiblingApp(t, { apiKey: key, ...overrides });
    started.push(app);
    lines = [];
    Logger.overrideLogger(capture);
    try {
      await bootstrapApiKey(app, { ...t.config, apiKey: key, ...overrides }, false);
    } finally {
      Logger.overrideLogger(['error']);
    }
    return lines;
  }

  const status = async (key: string) => (await request(t.http).get('/v2/api-key/').set('X-Api-Key', key)).status;
  const envKeys = async () =>
    (await request(t.http).get('/v2/api-key/').set('X-Api-Key', t.apiKey).expect(200)).body.data.list.filter(
      (k: { name: string }) => k.name === ENV_KEY_NAME,
    ) as {
      id: number;
      active: boolean;
      revokedAt: string | null;
    }[];

  function expectNoKeyMaterial(logged: string[], ...keys: string[]) {
    const text = logged.join('\n');
    for (const k of keys) {
      expect(text).not.toContain(k);
      expect(text).not.toContain(keyPrefix(k));
      expect(text).not.toContain(hashApiKey(k));
    }
  }

  it('starts with a new API_KEY on a database that has another one; both work during the grace period', async () => {
    const a = newKey();
    const b = newKey();
    const first = await startWith(a);
    expect(first).toContain('API key from API_KEY registered (scopes: api, admin, telephony)');
    const second = await startWith(b);
    expect(second.join('\n')).toMatch(/previous API_KEY keeps working until \d{4}-/);
    expectNoKeyMaterial([...first, ...second], a, b);
    expect(await status(a)).toBe(200);
    expect(await status(b)).toBe(200);
    const [keyA, keyB] = (await envKeys()).slice(-2);
    expect(keyA.active).toBe(true);
    const graceEnds = new Date(keyA.revokedAt!).getTime() - Date.now();
    expect(graceEnds).toBeGreaterThan(23.9 * 3_600_000);
    expect(graceEnds).toBeLessThanOrEqual(24 * 3_600_000);
    expect(keyB).toMatchObject({ active: true, revokedAt: null });

    // An instance of the previous release restarting mid-rollout: starts, keeps B the current key.
    const again = await startWith(a);
    expect(again.join('\n')).toMatch(/configured API_KEY was replaced by a newer API_KEY; it stops authenticating at/);
    expectNoKeyMaterial(again, a);
    expect((await envKeys()).slice(-2)).toEqual([keyA, keyB]);
    expect(await status(a)).toBe(200);
  });

  it('with API_KEY_ROTATION_GRACE_HOURS=0 the replaced key stops at once, and is not revived by a restart', async () => {
    const b = newKey();
    const c = newKey();
    await startWith(b);
    await startWith(c, { apiKeyRotationGraceHours: 0 });
    expect(await status(b)).toBe(401);
    expect(await status(c)).toBe(200);
    const logged = await startWith(b);
    expect(logged).toEqual(['the configured API_KEY is revoked; it does not authenticate']);
    expect(await status(b)).toBe(401);
    expect(await status(c)).toBe(200);
  });

  it('never re-activates a revoked API_KEY: revoked over HTTP, restarted with it, still 401', async () => {
    const b = newKey();
    await startWith(b);
    const current = (await envKeys()).at(-1)!;
    await request(t.http).post(`/v2/api-key/revoke/${current.id}/`).set('X-Api-Key', t.apiKey).expect(200);
    expect(await status(b)).toBe(401);
    const logged = await startWith(b);
    expect(logged).toEqual(['the configured API_KEY is revoked; it does not authenticate']);
    expectNoKeyMaterial(logged, b);
    expect(await status(b)).toBe(401);
  });

  it('instances starting at once with different keys all start and leave exactly one current key', async () => {
    const keys = t.app.get(ApiKeysService);
    const [a, b] = [newKey(), newKey()];
    const states = await Promise.all([a, b, a, b, a, b].map((k) => keys.registerEnvKey(ENV_KEY_NAME, k, [...SCOPES], 24)));
    expect(states.filter((s) => s.kind === 'registered')).toHaveLength(2);
    const current = (await envKeys()).filter((k) => k.revokedAt === null);
    expect(current).toHaveLength(1);
    expect(await status(a)).toBe(200);
    expect(await status(b)).toBe(200);
  });
});
