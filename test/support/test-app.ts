import { NestExpressApplication } from '@nestjs/platform-express';
import type { App } from 'supertest/types';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { createApp } from '../../src/app.setup';
import { AppConfig, loadConfig } from '../../src/config/app.config';
import { ApiKeysService } from '../../src/modules/auth/api-keys.service';
import type { Scope } from '../../src/common/auth-context';
import { createTestDatabase } from './test-db';

export interface TestApp {
  app: NestExpressApplication;
  http: App;
  ds: DataSource;
  config: AppConfig;
  databaseUrl: string;
  /** A key with every scope. */
  apiKey: string;
  keyWith(...scopes: Scope[]): Promise<string>;
  close(): Promise<void>;
}

/** Boots the real AppModule on a private database cloned from the migrated template. */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const config = loadConfig({ WORKERS: '1', API_KEY_CACHE_TTL_MS: '0', ...env });
  const app = await createApp(AppModule.register({ config, databaseUrl: db.url }), { logger: ['error'] });
  await app.init();
  const keys = app.get(ApiKeysService);
  const { key } = await keys.create('test-all', ['api', 'admin', 'telephony']);
  return {
    app,
    http: app.getHttpServer() as App,
    ds: app.get(DataSource),
    config,
    databaseUrl: db.url,
    apiKey: key,
    keyWith: async (...scopes: Scope[]) => (await keys.create(`test-${scopes.join('-')}-${Math.random()}`, scopes)).key,
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

/**
 * Another instance of the app on `t`'s database (as a second replica of the service, or a
 * restart with other settings): API-only unless `overrides` say otherwise. The caller closes it.
 */
export async function createSiblingApp(t: TestApp, overrides: Partial<AppConfig> = {}): Promise<NestExpressApplication> {
  const app = await createApp(AppModule.register({ config: { ...t.config, workers: 0, ...overrides }, databaseUrl: t.databaseUrl }), { logger: ['error'] });
  await app.init();
  return app;
}
