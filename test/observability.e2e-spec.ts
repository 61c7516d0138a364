import { Logger } from '@nestjs/common';
import request from 'supertest';
import { createLeadOrder, leadBody, testPhone } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

/** The value of one sample line of the Prometheus text, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const labelText = line.slice(name.length + 1, line.indexOf('}'));
    const got = Object.fromEntries([...labelText.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(line.slice(line.indexOf('}') + 1).trim());
  }
  return undefined;
}

describe('GET /metrics (Prometheus)', () => {
  let t: TestApp;
  let admin: string;
  // An API-only instance: async leads stay queued, so the backlog is observable.
  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
    admin = await t.keyWith('admin');
  });
  afterAll(async () => {
    await t.close();
  });

  const scrape = async () => {
    const res = await request(t.http).get('/metrics').set('X-Api-Key', admin).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    return res.text;
  };

  it('needs a key with the admin scope', async () => {
    const res = await request(t.http).get('/metrics').expect(401);
    expect(res.body.success).toBe(false);
    await request(t.http)
      .get('/metrics')
      .set('X-Api-Key', await t.keyWith('api'))
      .expect(403);
  });

  it('exposes process, Node.js and database pool metrics', async () => {
    const text = await scrape();
    expect(text).toMatch(/^# TYPE process_cpu_user_seconds_total counter$/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
    expect(sample(text, 'db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'db_pool_connections', { state: 'waiting_clients' })).toBe(0);
  });

  it('counts requests by route pattern, method and status, never by raw path', async () => {
    for (const id of [999001, 999002, 999003]) await request(t.http).get(`/v2/lead/detail/${id}/`).set('X-Api-Key', t.apiKey).expect(404);
    await request(t.http).get('/v2/no/such/route/42').set('X-Api-Key', t.apiKey).expect(404);
    const text = await scrape();
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/v2/lead/detail/:leadId', status: '404' })).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/v2/lead/detail/:leadId', status: '404' })).toBe(3);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '<unmatched>', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('999001');
    expect(text).not.toContain('/v2/no/such/route');
  });

  it('reports the fleet-wide backlog and consumers of each job queue', async () => {
    const before = sample(await scrape(), 'queue_backlog_jobs', { queue: 'lead.create' }) ?? 0;
    const order = await createLeadOrder(t);
    for (let i = 0; i < 3; i++) {
      await request(t.http)
        .post('/v2/lead/create-async/')
        .set('X-Api-Key', t.apiKey)
        .send(leadBody(order, { phone: testPhone() }))
        .expect(200);
    }
    await new Promise((r) => setTimeout(r, 1100)); // the queue report is shared for a second
    const text = await scrape();
    expect(sample(text, 'queue_backlog_jobs', { queue: 'lead.create' })).toBe(before + 3);
    expect(sample(text, 'queue_consumers', { queue: 'lead.create', kind: 'current' })).toBe(0);
    expect(sample(text, 'queue_consumers', { queue: 'lead.create', kind: 'needed' })).toBeGreaterThanOrEqual(1);
  });
});

describe('request ids and the access log', () => {
  let t: TestApp;
  beforeAll(async () => {
    // LOG_FORMAT's default follows stdout (json when it is not a terminal, as under Jest): text asked for here.
    t = await createTestApp({ WORKERS: '0', LOG_FORMAT: 'text' });
  });
  afterAll(async () => {
    await t.close();
  });

  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it("echoes the caller's sane X-Request-Id, and replaces a missing or unsafe one with a UUID", async () => {
    const kept = await request(t.http).get('/v2/user/list/').set('X-Api-Key', t.apiKey).set('X-Request-Id', 'crm-7f3a.42').expect(200);
    expect(kept.headers['x-request-id']).toBe('crm-7f3a.42');
    const fresh = await request(t.http).get('/v2/user/list/').set('X-Api-Key', t.apiKey).expect(200);
    expect(fresh.headers['x-request-id']).toMatch(UUID);
    const unsafe = await request(t.http).get('/v2/user/list/').set('X-Api-Key', t.apiKey).set('X-Request-Id', 'a b"c').expect(200);
    expect(unsafe.headers['x-request-id']).toMatch(UUID);
  });

  it('gives an id to, times and logs requests the body parser refuses', async () => {
    const admin = await t.keyWith('admin');
    const before =
      sample(
        await request(t.http)
          .get('/metrics')
          .set('X-Api-Key', admin)
          .then((r) => r.text),
        'http_requests_total',
        { method: 'POST', route: '/v2/lead/create', status: '400' },
      ) ?? 0;
    const res = await request(t.http)
      .post('/v2/lead/create/')
      .set('X-Api-Key', t.apiKey)
      .set('Content-Type', 'application/json')
      .send('{"phone": ')
      .expect(400);
    expect(res.headers['x-request-id']).toMatch(UUID);
    const text = (await request(t.http).get('/metrics').set('X-Api-Key', admin)).text;
    expect(sample(text, 'http_requests_total', { method: 'POST', route: '/v2/lead/create', status: '400' })).toBe(before + 1);
  });

  it('writes one line per request with method, path, status, duration, key and request id, never the body', async () => {
    const spy = jest.spyOn(Logger.prototype, 'log');
    try {
      const order = await createLeadOrder(t);
      const phone = testPhone();
      const res = await request(t.http)
        .post('/v2/lead/create/')
        .set('X-Api-Key', t.apiKey)
        .set('X-Request-Id', 'trace-me-1')
        .send(leadBody(order, { phone, name: 'Secret Sam' }))
        .expect(200);
      await new Promise((r) => setImmediate(r));
      const lines = spy.mock.calls.map(([m]) => String(m)).filter((m) => m.includes('trace-me-1'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^POST \/v2\/lead\/create\/ 200 [\d.]+ms key=\d+ id=trace-me-1$/);
      expect(lines[0]).not.toContain(phone.slice(1));
      expect(lines[0]).not.toContain('Secret Sam');
      expect(res.body.success).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('ACCESS_LOG=false, LOG_FORMAT=json', () => {
  it('writes no access lines when switched off, and JSON objects when on', async () => {
    const spy = jest.spyOn(Logger.prototype, 'log');
    const off = await createTestApp({ WORKERS: '0', ACCESS_LOG: 'false' });
    const on = await createTestApp({ WORKERS: '0', LOG_FORMAT: 'json' });
    try {
      await request(off.http).get('/v2/user/list/').set('X-Api-Key', off.apiKey).set('X-Request-Id', 'quiet-1').expect(200);
      // Query values can be personal data (a phone lookup): the line keeps the parameter names only.
      await request(on.http).get('/v2/user/list/?limit=1&accessGroup=call-center').set('X-Api-Key', on.apiKey).set('X-Request-Id', 'json-1').expect(200);
      await new Promise((r) => setImmediate(r));
      const calls = spy.mock.calls.map(([m]) => m);
      expect(calls.filter((m) => JSON.stringify(m).includes('quiet-1'))).toHaveLength(0);
      expect(calls.filter((m) => JSON.stringify(m).includes('json-1'))).toEqual([
        {
          requestId: 'json-1',
          method: 'GET',
          path: '/v2/user/list/?limit=&accessGroup=',
          status: 200,
          durationMs: expect.any(Number),
          apiKeyId: expect.any(Number),
        },
      ]);
    } finally {
      spy.mockRestore();
      await off.close();
      await on.close();
    }
  });
});

describe('GET /metrics with METRICS_ENABLED=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_ENABLED: 'false' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('still serves the process and queue metrics, but times no requests', async () => {
    await request(t.http).get('/v2/user/list/').set('X-Api-Key', t.apiKey).expect(200);
    const res = await request(t.http).get('/metrics').set('X-Api-Key', t.apiKey).expect(200);
    expect(res.text).toContain('process_cpu_user_seconds_total');
    expect(res.text).not.toMatch(/^http_requests_total\{/m);
  });
});
