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
    await request(t.http).get('/metrics').set('X-Api-Key', await t.keyWith('api')).expect(403);
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
      await request(t.http).post('/v2/lead/create-async/').set('X-Api-Key', t.apiKey).send(leadBody(order, { phone: testPhone() })).expect(200);
    }
    await new Promise((r) => setTimeout(r, 1100)); // the queue report is shared for a second
    const text = await scrape();
    expect(sample(text, 'queue_backlog_jobs', { queue: 'lead.create' })).toBe(before + 3);
    expect(sample(text, 'queue_consumers', { queue: 'lead.create', kind: 'current' })).toBe(0);
    expect(sample(text, 'queue_consumers', { queue: 'lead.create', kind: 'needed' })).toBeGreaterThanOrEqual(1);
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
