import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { createApp } from '../src/app.setup';
import { loadConfig } from '../src/config/app.config';
import { runMigrations } from '../src/assembly/data-source';
import { openDatabase, RunningDatabase } from '../src/database/start-database';
import { ApiKeysService } from '../src/modules/auth/api-keys.service';
import { createLeadOrder, leadBody, TestOrder } from './factories/leads';
import type { TestApp } from './support/test-app';

/**
 * The embedded PostgreSQL's own log lines, as `npm start` logs them: handled conflicts (a key name, an order code, a user's
 * e-mail, a lead status code, an Idempotency-Key reused with another lead) are 409s, and none of their values reaches the log
 * through the server's ERROR, DETAIL or STATEMENT lines.
 */
describe("the embedded server's log lines carry no values", () => {
  const lines: string[] = [];
  const capture = { log: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) };
  let dataDir: string;
  let db: RunningDatabase;
  let app: NestExpressApplication;
  let http: App;
  let key: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cc-pg-log-'));
    await chmod(dataDir, 0o755);
    const config = loadConfig({ DATA_DIR: dataDir, WORKERS: '0', API_KEY_CACHE_TTL_MS: '0' });
    db = await openDatabase(config, capture as unknown as Logger);
    await runMigrations(db.url);
    app = await createApp(AppModule.register({ config, databaseUrl: db.url }), { logger: ['error'] });
    await app.init();
    http = app.getHttpServer();
    key = (await app.get(ApiKeysService).create('log-hygiene', ['api', 'admin', 'telephony'])).key;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await db?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const post = (p: string, body: object, headers: Record<string, string> = {}) => request(http).post(p).set('X-Api-Key', key).set(headers).send(body);

  it('answers each conflict 409 and logs the constraint at most, never the value', async () => {
    const unique = randomUUID().slice(0, 8);
    const values = {
      keyName: `crm-secret-${unique}`,
      email: `ivan.petrov.${unique}@example.com`,
      statusCode: `st-secret-${unique}`,
      orderCode: `order-secret-${unique}`,
    };
    await post('/v2/api-key/create/', { name: values.keyName, scopes: ['api'] }).expect(200);
    await post('/v2/api-key/create/', { name: values.keyName, scopes: ['api'] }).expect(409);
    await post('/v2/user/create/', { email: values.email }).expect(200);
    await post('/v2/user/create/', { email: values.email }).expect(409);
    await post('/v2/lead-status/create/', { code: values.statusCode, title: 'Secret', category: 'closed' }).expect(200);
    await post('/v2/lead-status/create/', { code: values.statusCode, title: 'Secret', category: 'closed' }).expect(409);

    // The lead factory needs only the data source.
    const withDs = { ds: app.get(DataSource) } as unknown as TestApp;
    const order: TestOrder = await createLeadOrder(withDs);
    const other: TestOrder = await createLeadOrder(withDs);
    await post(`/v2/order/update/${other.id}/`, { code: values.orderCode }).expect(200);
    await post(`/v2/order/update/${order.id}/`, { code: values.orderCode }).expect(409);

    const first = leadBody(order, { name: 'Иван Секретов' });
    const second = leadBody(order, { name: 'Пётр Секретов' });
    await post('/v2/lead/create/', first, { 'Idempotency-Key': `k-${unique}` }).expect(200);
    await post('/v2/lead/create/', second, { 'Idempotency-Key': `k-${unique}` }).expect(409);

    // The server writes its log asynchronously: give its lines a moment to arrive.
    await new Promise((r) => setTimeout(r, 500));
    const log = lines.join('\n');
    expect(log).toMatch(/postgres: .*ERROR: {2}duplicate key value violates unique constraint "api_key_name_active_idx"/);
    for (const value of [...Object.values(values), first.phone, second.phone, first.phone.slice(1), second.phone.slice(1), 'Секретов', unique]) {
      expect(log).not.toContain(value);
    }
    expect(log).not.toMatch(/DETAIL|STATEMENT|Key \(/);
  });
});
