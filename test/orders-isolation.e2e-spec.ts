import request from 'supertest';
import { OrdersService } from '../src/modules/orders/orders.service';
import { clientKeyFor, insertClient } from './factories/clients';
import { createLead, leadBody, testPhone } from './factories/leads';
import { insertOrderReferences, minimalOrderBody, OrderRefs, orderTableCounts } from './factories/orders';
import { eventually } from './support/fake-servers';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Orders and their clients: clientId on create, update, detail and list (unrestricted keys), and
 * what a client key reaches: its client's orders only; any other answers as an order that does not exist.
 */
describe('orders isolation', () => {
  let t: TestApp;
  let refs: OrderRefs;
  let clientA: number;
  let clientB: number;
  let keyA: string;
  let keyB: string;
  /** Orders of client A (two), of client B, and the call center's own. */
  let a1: number;
  let a2: number;
  let b1: number;
  let own: number;

  const post = (path: string, body: unknown, key = t.apiKey) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', key)
      .send(body as object);
  const get = (path: string, key = t.apiKey) => request(t.http).get(path).set('X-Api-Key', key);
  const create = async (body: Record<string, unknown>, key = t.apiKey) => (await post('/v2/order/create/', body, key).expect(200)).body.data.id as number;
  const fields = (res: request.Response) => res.body.data.errors.map((e: { field: string }) => e.field);
  /** The order row as stored (updated_at included) and the events of the order: what "nothing changed" compares. */
  const stored = async (id: number) => ({
    row: (await t.ds.query(`SELECT to_jsonb(o) AS o FROM call_order o WHERE id = $1`, [id]))[0]?.o,
    events: (await t.ds.query(`SELECT count(*)::int AS n FROM event WHERE order_id = $1`, [id]))[0].n,
  });
  /** A 404 body with the id taken out: another client's order must read exactly like a missing one. */
  const withoutId = (res: request.Response, id: number | string) => JSON.parse(JSON.stringify(res.body).replaceAll(String(id), '<id>'));
  const MISSING = 2147483000;
  const MISSING_JOB = '00000000-0000-4000-8000-00000000dead';
  const codeOf = async (id: number) => (await get(`/v2/order/detail/${id}/`).expect(200)).body.data.code as string;
  /** A code no other test uses. */
  const freshCode = (name: string) => `${name}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`;

  beforeAll(async () => {
    t = await createTestApp();
    refs = await insertOrderReferences(t.ds);
    clientA = await insertClient(t, 'Dental clinic');
    clientB = await insertClient(t, 'Online school');
    keyA = await clientKeyFor(t, clientA);
    keyB = await clientKeyFor(t, clientB);
    a1 = await create(minimalOrderBody(refs, { title: 'Dental A1', clientId: clientA }));
    own = await create(minimalOrderBody(refs, { title: 'House order' }));
    b1 = await create(minimalOrderBody(refs, { title: 'School B1', clientId: clientB }));
    a2 = await create(minimalOrderBody(refs, { title: 'Dental A2', clientId: clientA }));
  });
  afterAll(async () => {
    await t.close();
  });

  describe('clientId with an unrestricted key', () => {
    it('is stored on create and shown by detail and list; absent or null is the call center’s own', async () => {
      expect((await get(`/v2/order/detail/${a1}/`).expect(200)).body.data.clientId).toBe(clientA);
      expect((await get(`/v2/order/detail/${own}/`).expect(200)).body.data.clientId).toBeNull();
      const explicitNull = await create(minimalOrderBody(refs, { title: 'Explicit null', clientId: null }));
      expect((await get(`/v2/order/detail/${explicitNull}/`).expect(200)).body.data.clientId).toBeNull();
      const list = (await get('/v2/order/?limit=100').expect(200)).body.data.list as { id: number; clientId: number | null }[];
      expect(list.filter((o) => [a1, own, b1, a2].includes(o.id)).map((o) => [o.id, o.clientId])).toEqual([
        [a1, clientA],
        [own, null],
        [b1, clientB],
        [a2, clientA],
      ]);
    });

    it('refuses an unknown or malformed clientId with 400 naming clientId, storing nothing', async () => {
      const before = await orderTableCounts(t.ds);
      const res = await post('/v2/order/create/', minimalOrderBody(refs, { clientId: MISSING })).expect(400);
      expect(res.body.data.errors).toEqual([{ field: 'clientId', message: `unknown id: ${MISSING}` }]);
      for (const bad of [0, -3, 1.5, 'x', true, 2147483648]) {
        expect(fields(await post('/v2/order/create/', minimalOrderBody(refs, { clientId: bad })).expect(400))).toEqual(['clientId']);
      }
      // Every problem at once: an unknown client beside an unknown scenario.
      const both = await post('/v2/order/create/', minimalOrderBody(refs, { clientId: MISSING, callScenarioId: MISSING })).expect(400);
      expect(fields(both).sort()).toEqual(['callScenarioId', 'clientId']);
      expect(await orderTableCounts(t.ds)).toEqual(before);

      const was = await stored(a1);
      expect(fields(await post(`/v2/order/update/${a1}/`, { clientId: MISSING, title: 'Not stored' }).expect(400))).toEqual(['clientId']);
      expect(await stored(a1)).toEqual(was);
    });

    it('moves an order to another client with everything under it: the old client’s key loses it, the new one reaches it', async () => {
      const moving = await create(minimalOrderBody(refs, { title: 'Moving', clientId: clientA }));
      const lead = await createLead(t, { id: moving, code: (await get(`/v2/order/detail/${moving}/`).expect(200)).body.data.code });
      expect((await get(`/v2/order/stats/${moving}/`, keyA).expect(200)).body.data.leads.total).toBe(1);

      await post(`/v2/order/update/${moving}/`, { clientId: clientB }).expect(200);
      expect((await get(`/v2/order/detail/${moving}/`).expect(200)).body.data.clientId).toBe(clientB);
      await get(`/v2/order/detail/${moving}/`, keyA).expect(404);
      await get(`/v2/order/stats/${moving}/`, keyA).expect(404);
      expect((await get(`/v2/order/detail/${moving}/`, keyB).expect(200)).body.data.id).toBe(moving);
      // Nothing to copy: the lead still hangs off the order, now client B's.
      expect((await get(`/v2/order/stats/${moving}/`, keyB).expect(200)).body.data.leads.total).toBe(1);
      expect((await t.ds.query(`SELECT order_id FROM lead WHERE id = $1`, [lead]))[0].order_id).toBe(moving);

      // The event says what changed; null takes it back to the call center.
      const [moved] = await t.ds.query(`SELECT payload FROM event WHERE order_id = $1 AND type = 'order.updated' ORDER BY position DESC LIMIT 1`, [moving]);
      expect(moved.payload).toMatchObject({ order: { clientId: clientB }, changed: ['clientId'] });
      await post(`/v2/order/update/${moving}/`, { clientId: null }).expect(200);
      expect((await get(`/v2/order/detail/${moving}/`).expect(200)).body.data.clientId).toBeNull();
      await get(`/v2/order/detail/${moving}/`, keyB).expect(404);
    });

    it('moves the order’s async lead jobs with it: their status answers the new client’s key and 404s the old one’s', async () => {
      const moving = await create(minimalOrderBody(refs, { title: 'Moving jobs', clientId: clientA }));
      const order = { id: moving, code: await codeOf(moving) };
      const accept = async (key: string) => (await post('/v2/lead/create-async/', leadBody(order), key).expect(200)).headers['x-job-id'];
      const jobs = [await accept(keyA), await accept(t.apiKey)];
      const status = (job: string, key: string) => get(`/v2/lead/create-async/${job}/`, key);
      for (const job of jobs) await eventually(async () => (await status(job, t.apiKey).expect(200)).body.data.status === 'done', 15_000, `job ${job} done`);
      for (const job of jobs) {
        await status(job, keyA).expect(200);
        await status(job, keyB).expect(404);
      }

      await post(`/v2/order/update/${moving}/`, { clientId: clientB }).expect(200);
      const unknown = withoutId(await status(MISSING_JOB, keyA).expect(404), MISSING_JOB);
      for (const job of jobs) {
        expect(withoutId(await status(job, keyA), job)).toEqual(unknown);
        expect((await status(job, keyB).expect(200)).body.data).toMatchObject({ jobId: job, status: 'done' });
      }
      // Back to the call center: no client key reaches them.
      await post(`/v2/order/update/${moving}/`, { clientId: null }).expect(200);
      for (const job of jobs) for (const key of [keyA, keyB]) expect(withoutId(await status(job, key), job)).toEqual(unknown);
    });

    it('shows a new clientId to this instance’s order settings at once', async () => {
      const orders = t.app.get(OrdersService);
      const id = await create(minimalOrderBody(refs, { title: 'Cached', clientId: clientA }));
      expect((await orders.getOrderSettings(id))?.clientId).toBe(clientA);
      await post(`/v2/order/update/${id}/`, { clientId: clientB }).expect(200);
      expect((await orders.getOrderSettings(id))?.clientId).toBe(clientB);
    });

    it('records clientId in the order.created event', async () => {
      const [created] = await t.ds.query(`SELECT payload FROM event WHERE order_id = $1 AND type = 'order.created'`, [b1]);
      expect(created.payload.order.clientId).toBe(clientB);
      const feed = (await get('/v2/event/?after=0&limit=100').expect(200)).body.data.list as {
        type: string;
        data: { order?: { id: number; clientId: number } };
      }[];
      expect(feed.find((e) => e.type === 'order.created' && e.data.order?.id === b1)?.data.order?.clientId).toBe(clientB);
    });
  });

  describe('order codes: unique within a client (orders of no client share one namespace), not across clients', () => {
    it('a client key takes a code another client or the call center uses; a second order of the same client with it is a 409', async () => {
      const code = freshCode('shared');
      await create(minimalOrderBody(refs, { code, clientId: clientB }));
      const ofA = await create(minimalOrderBody(refs, { code }), keyA);
      expect(await codeOf(ofA)).toBe(code);
      const before = await orderTableCounts(t.ds);
      const again = await post('/v2/order/create/', minimalOrderBody(refs, { code }), keyA).expect(409);
      expect(again.body).toEqual({ success: false, message: `Order code ${code} is already taken`, data: [] });
      expect(await orderTableCounts(t.ds)).toEqual(before);

      // The call center's own orders: one namespace of their own.
      const own = await create(minimalOrderBody(refs, { code }));
      expect(await codeOf(own)).toBe(code);
      const ownBefore = await orderTableCounts(t.ds);
      await post('/v2/order/create/', minimalOrderBody(refs, { code })).expect(409);
      await post('/v2/order/create/', minimalOrderBody(refs, { code, clientId: clientB })).expect(409);
      expect(await orderTableCounts(t.ds)).toEqual(ownBefore);
    });

    it('generates a code from the title counting only the orders of the same client', async () => {
      const title = freshCode('Spring sale');
      const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      const ofB = await create(minimalOrderBody(refs, { title, clientId: clientB }));
      const own = await create(minimalOrderBody(refs, { title }));
      const firstOfA = await create(minimalOrderBody(refs, { title }), keyA);
      const secondOfA = await create(minimalOrderBody(refs, { title }), keyA);
      const secondOwn = await create(minimalOrderBody(refs, { title }));
      expect([await codeOf(ofB), await codeOf(own), await codeOf(firstOfA), await codeOf(secondOfA), await codeOf(secondOwn)]).toEqual([
        slug,
        slug,
        slug,
        `${slug}-2`,
        `${slug}-2`,
      ]);
    });

    it('renames within the client; moving an order to a client that has its code is a 409 and changes nothing', async () => {
      const code = freshCode('rename');
      await create(minimalOrderBody(refs, { code, clientId: clientB }));
      const ofA = await create(minimalOrderBody(refs, { code: `${code}-a` }), keyA);
      await post(`/v2/order/update/${ofA}/`, { code }, keyA).expect(200);
      expect(await codeOf(ofA)).toBe(code);
      const otherOfA = await create(minimalOrderBody(refs, { code: `${code}-b` }), keyA);
      const was = await stored(otherOfA);
      expect((await post(`/v2/order/update/${otherOfA}/`, { code }, keyA).expect(409)).body.message).toBe(`Order code ${code} is already taken`);
      expect(await stored(otherOfA)).toEqual(was);

      const own = await create(minimalOrderBody(refs, { code }));
      const ownWas = await stored(own);
      for (const clientId of [clientA, clientB]) {
        expect((await post(`/v2/order/update/${own}/`, { clientId }).expect(409)).body.message).toBe(`Order code ${code} is already taken`);
      }
      expect(await stored(own)).toEqual(ownWas);
      // Moved back to the call center, an order meets the code of an own order the same way.
      await post(`/v2/order/update/${ofA}/`, { clientId: null }).expect(409);
      const elsewhere = await insertClient(t, freshCode('Elsewhere'));
      await post(`/v2/order/update/${own}/`, { clientId: elsewhere }).expect(200);
      expect((await get(`/v2/order/detail/${own}/`).expect(200)).body.data).toMatchObject({ code, clientId: elsewhere });
    });

    it('leads find their order by id and code when two clients share the code (v2, v1); another client’s order stays a missing one', async () => {
      const code = freshCode('same');
      const ofA = await create(minimalOrderBody(refs, { code, clientId: clientA }));
      const ofB = await create(minimalOrderBody(refs, { code, clientId: clientB }));
      const leadA = (await post('/v2/lead/create/', leadBody({ id: ofA, code }), keyA).expect(200)).body.data.id as number;
      expect((await get(`/v2/lead/detail/${leadA}/`, keyA).expect(200)).body.data).toMatchObject({ orderId: ofA, orderCode: code });
      const v1 = { lead_type: 'straight', client_phone: testPhone(), order_id: ofB, order_code: code };
      const leadB = (await post('/v1/lead/create/', v1, keyB).expect(200)).body.data.id as number;
      expect((await get(`/v2/lead/detail/${leadB}/`, keyB).expect(200)).body.data).toMatchObject({ orderId: ofB, orderCode: code });
      const leadOwn = (await post('/v2/lead/create/', leadBody({ id: ofB, code })).expect(200)).body.data.id as number;
      expect((await get(`/v2/lead/detail/${leadOwn}/`).expect(200)).body.data.orderId).toBe(ofB);

      const missing = withoutId(await post('/v2/lead/create/', leadBody({ id: MISSING, code }), keyA).expect(400), MISSING);
      expect(withoutId(await post('/v2/lead/create/', leadBody({ id: ofB, code }), keyA).expect(400), ofB)).toEqual(missing);
      const missingV1 = withoutId(await post('/v1/lead/create/', { ...v1, order_id: MISSING }, keyA).expect(400), MISSING);
      expect(withoutId(await post('/v1/lead/create/', v1, keyA).expect(400), ofB)).toEqual(missingV1);
    });
  });

  describe('a client key', () => {
    it('lists only its client’s orders, with an exact total, page by page', async () => {
      const mine = (await t.ds.query(`SELECT id FROM call_order WHERE client_id = $1 ORDER BY id`, [clientA])).map((r: { id: number }) => r.id);
      expect(mine).toEqual(expect.arrayContaining([a1, a2]));
      const page = (await get('/v2/order/?limit=100', keyA).expect(200)).body.data;
      expect(page.total).toBe(mine.length);
      expect(page.list.map((o: { id: number }) => o.id)).toEqual(mine);
      expect(page.list.every((o: { clientId: number }) => o.clientId === clientA)).toBe(true);
      const second = (await get('/v2/order/?offset=1&limit=1', keyA).expect(200)).body.data;
      expect(second).toMatchObject({ next: 2, total: mine.length });
      expect(second.list.map((o: { id: number }) => o.id)).toEqual([mine[1]]);
      const bPage = (await get('/v2/order/?limit=100', keyB).expect(200)).body.data;
      expect(bPage.list.map((o: { id: number }) => o.id)).not.toContain(a1);
      expect(bPage.list.map((o: { id: number }) => o.id)).toContain(b1);
    });

    it('reads its own orders; another client’s order, or the call center’s own, is a 404 like a missing id', async () => {
      expect((await get(`/v2/order/detail/${a1}/`, keyA).expect(200)).body.data).toEqual((await get(`/v2/order/detail/${a1}/`).expect(200)).body.data);
      const missing = withoutId(await get(`/v2/order/detail/${MISSING}/`, keyA).expect(404), MISSING);
      expect(missing).toEqual({ success: false, message: 'Order <id> not found', data: [] });
      for (const id of [b1, own]) {
        expect(withoutId(await get(`/v2/order/detail/${id}/`, keyA).expect(404), id)).toEqual(missing);
        expect(withoutId(await get(`/v2/order/stats/${id}/`, keyA).expect(404), id)).toEqual(
          withoutId(await get(`/v2/order/stats/${MISSING}/`, keyA).expect(404), MISSING),
        );
      }
      expect((await get(`/v2/order/stats/${a1}/`, keyA).expect(200)).body.data.orderId).toBe(a1);
    });

    it('cannot update another client’s order or the call center’s own: 404 like a missing id, nothing changed', async () => {
      const missing = withoutId(await post(`/v2/order/update/${MISSING}/`, { title: 'Taken over' }, keyA).expect(404), MISSING);
      for (const id of [b1, own]) {
        const was = await stored(id);
        for (const body of [{ title: 'Taken over' }, { clientId: clientA }, {}]) {
          expect(withoutId(await post(`/v2/order/update/${id}/`, body, keyA).expect(404), id)).toEqual(missing);
        }
        expect(await stored(id)).toEqual(was);
      }
    });

    it('updates its own orders but cannot move one to another client or to the call center', async () => {
      await post(`/v2/order/update/${a2}/`, { title: 'Dental A2 renamed', clientId: clientA }, keyA).expect(200);
      expect((await get(`/v2/order/detail/${a2}/`).expect(200)).body.data).toMatchObject({ title: 'Dental A2 renamed', clientId: clientA });
      const was = await stored(a2);
      for (const clientId of [clientB, null, MISSING]) {
        const res = await post(`/v2/order/update/${a2}/`, { title: 'Moved away', clientId }, keyA).expect(400);
        expect(res.body.data.errors).toEqual([
          { field: 'clientId', message: `a client key's orders belong to its client: leave clientId out or send ${clientA}` },
        ]);
      }
      expect(await stored(a2)).toEqual(was);
    });

    it('creates orders of its own client whatever it leaves out; another client, null or an unknown id is a 400 that tells nothing', async () => {
      const implicit = await create(minimalOrderBody(refs, { title: 'Created by A' }), keyA);
      const explicit = await create(minimalOrderBody(refs, { title: 'Created by A, said so', clientId: clientA }), keyA);
      const rows = await t.ds.query(`SELECT id, client_id FROM call_order WHERE id = ANY($1) ORDER BY id`, [[implicit, explicit]]);
      expect(rows).toEqual([
        { id: implicit, client_id: clientA },
        { id: explicit, client_id: clientA },
      ]);
      expect((await get(`/v2/order/detail/${implicit}/`, keyA).expect(200)).body.data.clientId).toBe(clientA);
      await get(`/v2/order/detail/${implicit}/`, keyB).expect(404);

      const before = await orderTableCounts(t.ds);
      const answers = [];
      for (const clientId of [clientB, null, MISSING]) {
        const res = await post('/v2/order/create/', minimalOrderBody(refs, { title: 'Not created', clientId }), keyA).expect(400);
        expect(fields(res)).toEqual(['clientId']);
        answers.push(res.body);
      }
      // Another client's id and one that does not exist get the same answer.
      expect(answers[0]).toEqual(answers[2]);
      expect(await orderTableCounts(t.ds)).toEqual(before);
    });

    it('cannot reach the management routes of clients (403)', async () => {
      await get('/v2/client/', keyA).expect(403);
      await post('/v2/client/create/', { name: 'Takeover' }, keyA).expect(403);
    });
  });
});
