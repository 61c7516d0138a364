import { Logger } from '@nestjs/common';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createSiblingApp, createTestApp, TestApp } from './support/test-app';

// A day-long window: a test run never straddles two windows (barring 00:00 UTC).
const LIMIT = 4;
const ENV = { RATE_LIMIT_REQUESTS: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: '86400' };

describe('rate limiting (RATE_LIMIT_REQUESTS)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(ENV);
  });
  afterAll(async () => {
    await t.close();
  });

  const users = (http: App, key: string) => request(http).get('/v2/user/list/').set('X-Api-Key', key);

  it('counts requests per key, says what is left, then answers 429 with the envelope, Retry-After and nothing remaining', async () => {
    const key = await t.keyWith('api');
    for (let i = 1; i <= LIMIT; i++) {
      const res = await users(t.http, key).expect(200);
      expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - i));
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(86400);
    }
    const res = await users(t.http, key).expect(429);
    expect(res.body).toEqual({ success: false, message: expect.stringContaining('Too many requests'), data: [] });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86400);
    expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
  });

  it('gives every key its own budget', async () => {
    const [a, b] = [await t.keyWith('api'), await t.keyWith('api')];
    for (let i = 0; i < LIMIT; i++) await users(t.http, a).expect(200);
    await users(t.http, a).expect(429);
    const res = await users(t.http, b).expect(200);
    expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it('changes nothing when it refuses a write', async () => {
    const admin = await t.keyWith('admin');
    const create = (name: string) =>
      request(t.http)
        .post('/v2/api-key/create/')
        .set('X-Api-Key', admin)
        .send({ name, scopes: ['api'] });
    for (let i = 0; i < LIMIT; i++) await create(`limited-${i}`).expect(200);
    await create('one-too-many').expect(429);
    const rows: unknown[] = await t.ds.query(`SELECT 1 FROM api_key WHERE name = 'one-too-many'`);
    expect(rows).toHaveLength(0);
  });

  it('does not limit the public probes, nor count requests without a valid key', async () => {
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await request(t.http).get('/health/live').expect(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
    for (let i = 0; i < LIMIT + 2; i++) await users(t.http, 'cck_not-a-real-key').expect(401);
  });

  it('shares one budget between instances on the same database', async () => {
    const second = await createSiblingApp(t);
    try {
      const key = await t.keyWith('api');
      const http2 = second.getHttpServer() as App;
      for (let i = 0; i < LIMIT; i++) await users(i % 2 === 0 ? t.http : http2, key).expect(200);
      await users(t.http, key).expect(429);
      await users(http2, key).expect(429);
    } finally {
      await second.close();
    }
  });

  it('keeps serving when its counters cannot be written (fails open)', async () => {
    const key = await t.keyWith('api');
    // The failed writes are logged (captured here, not printed), without the statement's values.
    const logged: string[] = [];
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation((m: unknown) => void logged.push(String(m)));
    await t.ds.query(`ALTER TABLE rate_limit_counter RENAME TO rate_limit_counter_away`);
    try {
      for (let i = 0; i < LIMIT + 2; i++) await users(t.http, key).expect(200);
    } finally {
      await t.ds.query(`ALTER TABLE rate_limit_counter_away RENAME TO rate_limit_counter`);
      errors.mockRestore();
    }
    expect(logged).toContainEqual(expect.stringMatching(/^query failed: .*42P01 undefined_table in INSERT INTO rate_limit_counter/));
    await users(t.http, key).expect(200);
  });
});

describe('rate limiting switched off (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('sends no rate-limit headers and writes no counters', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await request(t.http).get('/v2/user/list/').set('X-Api-Key', t.apiKey).expect(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
    expect(await t.ds.query(`SELECT count(*)::int AS n FROM rate_limit_counter`)).toEqual([{ n: 0 }]);
  });
});
