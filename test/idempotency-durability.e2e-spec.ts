import { createHash, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { IdempotencyStore } from '../src/common/idempotency/idempotency.store';
import { insertUser, notificationBody } from './factories/notifications';
import { insertOrderReferences, minimalOrderBody } from './factories/orders';
import { uniquePhone } from './factories/reference';
import { createTestApp, TestApp } from './support/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Creates other than leads complete their Idempotency-Key record inside the write's own
 * transaction: the record's completed row and the resource's row carry one transaction id (xmin),
 * so a process that dies right after the commit still leaves a record its retry replays.
 */
describe('Idempotency-Key: the record commits with the write', () => {
  let t: TestApp;
  let store: IdempotencyStore;
  let orderBody: Record<string, unknown>;
  let privateUser: number;

  beforeAll(async () => {
    // SMTP configured but no worker: e-mails stay queued, so every one a notification would send is counted.
    t = await createTestApp({ WORKERS: '0', SMTP_URL: 'smtp://127.0.0.1:9' });
    store = t.app.get(IdempotencyStore);
    for (let i = 0; i < 3; i++) await insertUser(t.ds, { emailEnabled: true });
    privateUser = (await insertUser(t.ds, { emailEnabled: true })).id;
    orderBody = minimalOrderBody(await insertOrderReferences(t.ds), { code: 'durable-order' });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (path: string, key: string, body: object) => request(t.http).post(path).set('X-Api-Key', t.apiKey).set('Idempotency-Key', key).send(body);
  const count = async (sql: string, params: unknown[]) => (await t.ds.query(sql, params))[0].n as number;
  const emails = (title: string) =>
    count(`SELECT count(*)::int AS n FROM notification_delivery d JOIN notification n ON n.id = d.notification_id WHERE n.title = $1 AND d.channel = 'email'`, [
      title,
    ]);

  /** The record of `key` is complete, committed by the transaction that wrote the newest row of `table`. */
  async function expectCompletedWithWrite(key: string, table: string): Promise<void> {
    const [record] = await t.ds.query(`SELECT xmin::text AS xmin, completed_at IS NOT NULL AS completed FROM idempotency_record WHERE key = $1`, [key]);
    const [written] = await t.ds.query(`SELECT xmin::text AS xmin FROM ${table} ORDER BY id DESC LIMIT 1`);
    expect({ key, ...record }).toEqual({ key, xmin: written.xmin, completed: true });
  }

  it('an order: a retry returns the first order and creates none', async () => {
    const first = await post('/v2/order/create/', 'order-1', orderBody);
    await expectCompletedWithWrite('order-1', 'call_order');
    const retry = await post('/v2/order/create/', 'order-1', orderBody).expect(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await count(`SELECT count(*)::int AS n FROM call_order WHERE code = 'durable-order'`, [])).toBe(1);
    const [order] = await t.ds.query(`SELECT id FROM call_order WHERE code = 'durable-order'`);
    expect(retry.body).toEqual({ success: true, message: '', data: { id: order.id } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual(retry.body);
  });

  it('a public notification: a retry sends no e-mail twice', async () => {
    const body = notificationBody();
    await post('/v1/notification/public/', 'public-1', body).expect(200);
    await expectCompletedWithWrite('public-1', 'notification');
    const sent = await emails(body.title);
    expect(sent).toBeGreaterThanOrEqual(4);
    const retry = await post('/v1/notification/public/', 'public-1', body).expect(200);
    expect(retry.body).toEqual({ success: true, message: '', data: [] });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await emails(body.title)).toBe(sent);
    expect(await count(`SELECT count(*)::int AS n FROM notification WHERE title = $1`, [body.title])).toBe(1);
  });

  // Every other creating route but leads (their job id protects them) and calls (platformCallId does).
  const routes: [string, () => object, string][] = [
    ['/v1/notification/group/', () => ({ ...notificationBody(), group: 'call-center' }), 'notification'],
    ['/v1/notification/private/', () => ({ ...notificationBody(), user_id: privateUser }), 'notification'],
    ['/v2/user/create/', () => ({ email: `durable-${randomUUID()}@test.example` }), 'app_user'],
    ['/v2/agent-group/create/', () => ({ names: { ru: 'Группа', gb: `Group ${randomUUID()}` } }), 'agent_group'],
    ['/v2/sip-endpoint/create/', () => ({ number: uniquePhone(), title: 'Line' }), 'sip_endpoint'],
    ['/v2/call-scenario/create/', () => ({ title: `Scenario ${randomUUID()}` }), 'call_scenario'],
    ['/v2/call-attempt/create/', () => ({ title: `Attempts ${randomUUID()}`, intervals: [5, 30] }), 'call_attempt_group'],
    ['/v2/custom-field/create/', () => ({ title: `Field ${randomUUID()}`, type: 'string', essence: 'leads' }), 'custom_field'],
    ['/v2/lead-status/create/', () => ({ code: `s-${randomUUID().slice(0, 8)}`, title: 'Status', category: 'closed' }), 'lead_status'],
    ['/v2/call-status/create/', () => ({ code: `c-${randomUUID().slice(0, 8)}`, title: 'Status', category: 'not-answered' }), 'call_status'],
  ];
  it.each(routes)('%s: a retry replays exactly what was sent and creates nothing', async (path, makeBody, table) => {
    const body = makeBody();
    const rows = () => count(`SELECT count(*)::int AS n FROM ${table}`, []);
    const before = await rows();
    const first = await post(path, `route-${path}`, body).expect(200);
    await expectCompletedWithWrite(`route-${path}`, table);
    const retry = await post(path, `route-${path}`, body).expect(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await rows()).toBe(before + 1);
  });

  it('release and completion touch only the claim that owns the record', async () => {
    const [{ id: apiKeyId }] = await t.ds.query(`SELECT id FROM api_key ORDER BY id LIMIT 1`);
    const hash = createHash('sha256').update('owner-test').digest('hex');
    const first = { apiKeyId, key: 'owned-1', owner: randomUUID() };
    const second = { ...first, owner: randomUUID() };
    expect(await store.begin(apiKeyId, first.key, hash, first.owner)).toEqual({ kind: 'owned' });
    // The first request outlives the abandonment window; a retry takes the record over.
    await t.ds.query(`UPDATE idempotency_record SET created_at = now() - interval '61 seconds' WHERE key = 'owned-1'`);
    expect(await store.begin(apiKeyId, second.key, hash, second.owner)).toEqual({ kind: 'owned' });
    await store.release(first);
    expect(await t.ds.query(`SELECT owner FROM idempotency_record WHERE key = 'owned-1'`)).toEqual([{ owner: second.owner }]);
    expect(await store.completeAfterCommit(first, { id: 1 }, {})).toBe(false);
    expect(await store.completeAfterCommit(second, { id: 2 }, {})).toBe(true);
    expect(await store.peek(apiKeyId, first.key, hash)).toEqual({ kind: 'replay', data: { id: 2 }, headers: {} });
  });

  it('a request whose record was taken over rolls back: one resource, and the retry that took over answers it', async () => {
    const body = { title: `Slow ${randomUUID()}` };
    const scenarios = () => count(`SELECT count(*)::int AS n FROM call_scenario WHERE title = $1`, [body.title]);
    const owner = async () => (await t.ds.query(`SELECT owner FROM idempotency_record WHERE key = 'slow-1'`))[0]?.owner as string | undefined;
    const until = async (ok: () => Promise<boolean>) => {
      for (let i = 0; i < 200 && !(await ok()); i++) await sleep(25);
    };
    // Hold call_scenario inserts so that the first request is still running when its retry arrives.
    const blocker = new Client({ connectionString: t.databaseUrl });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE call_scenario IN SHARE MODE');
    let first: Promise<request.Response> | undefined;
    let retry: Promise<request.Response> | undefined;
    try {
      first = post('/v2/call-scenario/create/', 'slow-1', body).then((r) => r);
      await until(async () => (await owner()) !== undefined);
      const firstOwner = await owner();
      await t.ds.query(`UPDATE idempotency_record SET created_at = now() - interval '61 seconds' WHERE key = 'slow-1'`);
      retry = post('/v2/call-scenario/create/', 'slow-1', body).then((r) => r);
      await until(async () => (await owner()) !== firstOwner);
    } finally {
      await blocker.query('COMMIT');
      await blocker.end();
    }
    const [a, b] = await Promise.all([first, retry]);
    expect(a.status).toBe(409);
    expect(a.body.message).toMatch(/took over/);
    expect(b.status).toBe(200);
    expect(await scenarios()).toBe(1);
    const again = await post('/v2/call-scenario/create/', 'slow-1', body).expect(200);
    expect(again.body).toEqual(b.body);
  });
});
