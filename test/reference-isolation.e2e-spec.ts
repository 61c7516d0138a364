import request from 'supertest';
import { assignOrderToClient, clientKeyFor, insertClient } from './factories/clients';
import { postNotification, notificationBody } from './factories/notifications';
import { createOrder, insertAgentGroup, insertCallAttemptGroup, insertSipEndpoint, insertUser } from './factories/orders';
import { createTestApp, TestApp } from './support/test-app';

/**
 * What a client key reaches of the reference data: users and agent groups assigned to its client's orders, notifications to
 * those users only; field definitions and the health check alike; nothing that reaches every client (403).
 */
describe('client keys and reference data', () => {
  let t: TestApp;
  let keyA: string;
  let keyB: string;
  let keyIdle: string;
  /** Users: of order A by name, in order A's group, of order B, of the unrestricted order, of no order, of A and B both. */
  const u = { a: 0, aGroup: 0, b: 0, none: 0, free: 0, shared: 0 };
  const g = { a: 0, b: 0, none: 0 };
  let orderA: number;
  let clientA: number;
  const MISSING = 2147483000;

  const get = (path: string, key: string) => request(t.http).get(path).set('X-Api-Key', key);
  const post = (path: string, body: object, key: string) => request(t.http).post(path).set('X-Api-Key', key).send(body);
  /** The answer to a record that does not exist, with `missing` in place of `id`. */
  const asIfMissing = (body: unknown, id: number) => JSON.parse(JSON.stringify(body).replaceAll(String(id), String(MISSING)));
  const ids = (res: request.Response) => (res.body.data.list as { id: number }[]).map((x) => x.id);

  beforeAll(async () => {
    t = await createTestApp();
    const [clientB, idle] = [await insertClient(t), await insertClient(t)];
    clientA = await insertClient(t);
    for (const k of Object.keys(u) as (keyof typeof u)[]) u[k] = await insertUser(t.ds);
    for (const k of Object.keys(g) as (keyof typeof g)[]) g[k] = await insertAgentGroup(t.ds);
    await t.ds.query(`INSERT INTO agent_group_member (group_id, user_id) VALUES ($1, $2), ($3, $4), ($5, $6)`, [g.a, u.aGroup, g.b, u.b, g.none, u.free]);
    const sip = await insertSipEndpoint(t.ds);
    const order = (agentUserIds: number[], agentGroupIds: number[]) =>
      createOrder(t, { serviceTitle: 'Reach', title: 'Reach', status: 'success', sipEndpointIds: [sip], agentUserIds, agentGroupIds });
    orderA = await order([u.a, u.shared], [g.a]);
    const orderB = await order([u.shared], [g.b]);
    await order([u.none], [g.none]);
    await assignOrderToClient(t, orderA, clientA);
    await assignOrderToClient(t, orderB, clientB);
    [keyA, keyB, keyIdle] = [await clientKeyFor(t, clientA), await clientKeyFor(t, clientB), await clientKeyFor(t, idle)];
  });
  afterAll(async () => {
    await t.close();
  });

  describe('users', () => {
    it('reads a user of its orders (by name or through a group) as an unrestricted key does', async () => {
      for (const id of [u.a, u.aGroup, u.shared]) {
        const res = await get(`/v2/user/detail/${id}/`, keyA).expect(200);
        expect(res.body).toEqual((await get(`/v2/user/detail/${id}/`, t.apiKey)).body);
      }
    });

    it('answers any other user exactly as one that does not exist', async () => {
      const missing = await get(`/v2/user/detail/${MISSING}/`, keyA).expect(404);
      expect(missing.body).toMatchObject({ success: false, message: `User ${MISSING} not found` });
      for (const id of [u.b, u.none, u.free]) {
        const res = await get(`/v2/user/detail/${id}/`, keyA).expect(404);
        expect(asIfMissing(res.body, id)).toEqual(missing.body);
      }
    });

    it('lists only the users of its orders; total counts only them, filters apply within them', async () => {
      const res = await get('/v2/user/list/?limit=100', keyA).expect(200);
      expect(ids(res)).toEqual([u.a, u.aGroup, u.shared].sort((x, y) => x - y));
      expect(res.body.data.total).toBe(3);
      expect(ids(await get('/v2/user/list/?limit=100', keyB).expect(200))).toEqual([u.b, u.shared].sort((x, y) => x - y));
      const page = await get('/v2/user/list/?limit=1&offset=1', keyA).expect(200);
      expect(page.body.data).toMatchObject({ total: 3, list: [{ id: [u.a, u.aGroup, u.shared].sort((x, y) => x - y)[1] }] });
      expect((await get('/v2/user/list/?accessGroup=admin', keyA).expect(200)).body.data).toMatchObject({ list: [], total: 0 });
    });

    it('a client without orders sees no user; an unrestricted key sees every one', async () => {
      expect((await get('/v2/user/list/', keyIdle).expect(200)).body.data).toMatchObject({ list: [], total: 0 });
      await get(`/v2/user/detail/${u.a}/`, keyIdle).expect(404);
      const all = ids(await get('/v2/user/list/?limit=100', t.apiKey).expect(200));
      expect(all).toEqual(expect.arrayContaining(Object.values(u)));
    });

    it('follows an order moved to another client at once', async () => {
      await assignOrderToClient(t, orderA, null);
      try {
        await get(`/v2/user/detail/${u.a}/`, keyA).expect(404);
        expect((await get('/v2/user/list/', keyA).expect(200)).body.data.total).toBe(0);
      } finally {
        await assignOrderToClient(t, orderA, clientA);
      }
      await get(`/v2/user/detail/${u.a}/`, keyA).expect(200);
    });
  });

  describe('agent groups', () => {
    it("reads a group of its orders' agentGroupIds; any other group answers as one that does not exist", async () => {
      expect((await get(`/v2/agent-group/${g.a}/`, keyA).expect(200)).body).toEqual((await get(`/v2/agent-group/${g.a}/`, t.apiKey)).body);
      const missing = await get(`/v2/agent-group/${MISSING}/`, keyA).expect(404);
      for (const id of [g.b, g.none]) expect(asIfMissing((await get(`/v2/agent-group/${id}/`, keyA).expect(404)).body, id)).toEqual(missing.body);
      await get(`/v2/agent-group/${g.b}/`, keyB).expect(200);
    });

    it('lists only those groups; total counts only them, agentId filters within them', async () => {
      const res = await get('/v2/agent-group/?limit=100', keyA).expect(200);
      expect(res.body.data).toMatchObject({ total: 1, list: [{ id: g.a, agentIds: [u.aGroup] }] });
      expect((await get(`/v2/agent-group/?agentId=${u.aGroup}`, keyA).expect(200)).body.data.total).toBe(1);
      expect((await get(`/v2/agent-group/?agentId=${u.b}`, keyA).expect(200)).body.data).toMatchObject({ total: 0, list: [] });
      expect((await get('/v2/agent-group/', keyIdle).expect(200)).body.data).toMatchObject({ total: 0, list: [] });
      expect(ids(await get('/v2/agent-group/?limit=100', t.apiKey).expect(200))).toEqual(expect.arrayContaining(Object.values(g)));
    });
  });

  describe('notifications', () => {
    const stored = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM notification`))[0].n as number;

    it('sends a private notification to a user of its orders', async () => {
      const before = await stored();
      await postNotification(t, 'private', { ...notificationBody(), user_id: u.aGroup }, keyA).expect(200);
      expect(await stored()).toBe(before + 1);
    });

    it('answers a private notification to any other user as to one that does not exist, storing nothing', async () => {
      const before = await stored();
      const missing = await postNotification(t, 'private', { ...notificationBody(), user_id: MISSING }, keyA).expect(404);
      for (const id of [u.b, u.none, u.free]) {
        const res = await postNotification(t, 'private', { ...notificationBody(), user_id: id }, keyA).expect(404);
        expect(asIfMissing(res.body, id)).toEqual(missing.body);
      }
      expect(await stored()).toBe(before);
    });

    it('refuses group and public notifications (403) and the admin list (scope), storing nothing', async () => {
      const before = await stored();
      for (const [kind, body] of [
        ['group', { ...notificationBody(), group: 'call-center' }],
        ['public', notificationBody()],
      ] as const) {
        const res = await postNotification(t, kind, body, keyA).expect(403);
        expect(res.body).toMatchObject({ success: false, message: expect.stringContaining('client key') });
      }
      await get(`/v1/notification/?userId=${u.a}`, keyA).expect(403);
      expect(await stored()).toBe(before);
      await postNotification(t, 'public', notificationBody(), t.apiKey).expect(200);
    });
  });

  describe('attempt groups, custom fields, health', () => {
    it('refuses a change of an attempt group (shared by every client): 403, nothing changed', async () => {
      const id = await insertCallAttemptGroup(t.ds);
      const row = async () => (await t.ds.query(`SELECT to_jsonb(g) AS row FROM call_attempt_group g WHERE id = $1`, [id]))[0].row;
      const before = await row();
      const res = await post(`/v2/call-attempt/update/${id}/`, { title: 'Taken over' }, keyA).expect(403);
      expect(res.body).toMatchObject({ success: false, message: expect.stringContaining('client key') });
      await get('/v2/call-attempt/', keyA).expect(403);
      await get(`/v2/call-attempt/detail/${id}/`, keyA).expect(403);
      expect(await row()).toEqual(before);
      await post(`/v2/call-attempt/update/${id}/`, { title: 'Renamed' }, await t.keyWith('api')).expect(200);
    });

    it('reads every custom field definition, as an unrestricted key does', async () => {
      await post('/v2/custom-field/create/', { essence: 'leads', title: 'Tier', type: 'string' }, t.apiKey).expect(200);
      for (const path of ['/v2/custom-field/?essence=leads', '/v2/custom-fields/?essence=orders']) {
        const res = await get(path, keyA).expect(200);
        expect(res.body).toEqual((await get(path, t.apiKey)).body);
      }
    });

    it('reads the health check (no customer data in it)', async () => {
      const res = await get('/v1/health/check/', keyA);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveProperty('database');
    });
  });
});
