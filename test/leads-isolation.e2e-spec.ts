import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { LeadCreateJobsService } from '../src/modules/leads/lead-create-jobs.service';
import { assignOrderToClient, clientKeyFor, insertClient } from './factories/clients';
import { createLead, createLeadOrder, leadBody, testPhone, TestOrder } from './factories/leads';
import { apiRequests } from './support/api-requests';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Client keys on every lead route (v1 and v2): another client's order, lead or job, and an order
 * of no client, answer exactly as one that does not exist, and nothing changes; lists and lookups
 * hold only the key's client's leads, with an exact total. Unrestricted keys see everything.
 */

const UNKNOWN_ORDER = 99_999_901;
const UNKNOWN_LEAD = 99_999_902;

/** The answer with `id` written as ID: two answers that differ only by the id they name compare equal. */
const withoutId = (res: { status: number; body: unknown }, id: number | string) => ({
  status: res.status,
  body: JSON.parse(JSON.stringify(res.body).split(String(id)).join('ID')),
});

describe('leads: client keys reach only their client’s orders', () => {
  let t: TestApp;
  const { post, get } = apiRequests(() => t);
  let keyA: string;
  let keyB: string;
  let keyNone: string;
  let clientA: number;
  let a1: TestOrder;
  let a2: TestOrder;
  let b: TestOrder;
  let n: TestOrder;
  let leadA: number;
  let leadB: number;
  let leadN: number;
  const shared = { ext: `SHARED-${process.pid}`, phone: testPhone() };

  /** The lead's row as stored (updated_at included): "nothing changed" compares it before and after. */
  const leadRow = async (id: number) => (await t.ds.query(`SELECT * FROM lead WHERE id = $1`, [id]))[0] as Record<string, unknown>;
  const leadsIn = async (orderId: number) => (await t.ds.query(`SELECT count(*)::int AS n FROM lead WHERE order_id = $1`, [orderId]))[0].n as number;
  const countWhere = async (where: string, params: unknown[]) =>
    (await t.ds.query(`SELECT count(*)::int AS n FROM lead WHERE ${where}`, params))[0].n as number;

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    clientA = await insertClient(t);
    const clientB = await insertClient(t);
    [a1, a2, b, n] = [await createLeadOrder(t), await createLeadOrder(t), await createLeadOrder(t), await createLeadOrder(t)];
    await assignOrderToClient(t, a1.id, clientA);
    await assignOrderToClient(t, a2.id, clientA);
    await assignOrderToClient(t, b.id, clientB);
    keyA = await clientKeyFor(t, clientA);
    keyB = await clientKeyFor(t, clientB);
    keyNone = await clientKeyFor(t, await insertClient(t));
    // Leads of every order share an external id and a phone: lookups must tell them apart.
    const same = { externalIdCrmA: shared.ext, phone: shared.phone };
    leadA = await createLead(t, a1, { ...same, name: 'A' });
    await createLead(t, a2, { ...same, name: 'A2' });
    await createLead(t, a2, { name: 'A2 other' });
    leadB = await createLead(t, b, { ...same, name: 'B' });
    leadN = await createLead(t, n, { ...same, name: 'N' });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('creates', () => {
    it('v2 create: another client’s order or an order of no client is a 400 as an unknown order; nothing is stored', async () => {
      for (const order of [b, n]) {
        const before = await leadsIn(order.id);
        const foreign = await post('/v2/lead/create/', leadBody(order), keyA);
        const unknown = await post('/v2/lead/create/', leadBody(order, { orderId: UNKNOWN_ORDER }), keyA);
        expect(foreign.status).toBe(400);
        expect(withoutId(foreign, order.id)).toEqual(withoutId(unknown, UNKNOWN_ORDER));
        expect(await leadsIn(order.id)).toBe(before);
      }
      await post('/v2/lead/create/', leadBody(b), keyB).expect(200);
      await post('/v2/lead/create/', leadBody(a1), keyA).expect(200);
      await post('/v2/lead/create/', leadBody(n)).expect(200);
    });

    it('v1 create: the same, in v1 terms', async () => {
      const v1 = (order: TestOrder, orderId = order.id) => ({ lead_type: 'straight', client_phone: testPhone(), order_id: orderId, order_code: order.code });
      for (const order of [b, n]) {
        const before = await leadsIn(order.id);
        const foreign = await post('/v1/lead/create/', v1(order), keyA);
        const unknown = await post('/v1/lead/create/', v1(order, UNKNOWN_ORDER), keyA);
        expect(foreign.status).toBe(400);
        expect(withoutId(foreign, order.id)).toEqual(withoutId(unknown, UNKNOWN_ORDER));
        expect(await leadsIn(order.id)).toBe(before);
      }
      await post('/v1/lead/create/', v1(b), keyB).expect(200);
    });

    it('create-batch: each item naming another client’s order fails as one naming an unknown order; the others are created', async () => {
      const before = [await leadsIn(b.id), await leadsIn(n.id)];
      const items = [leadBody(a1), leadBody(b), leadBody(n), leadBody(b, { orderId: UNKNOWN_ORDER })];
      const res = await post('/v2/lead/create-batch/', { leads: items }, keyA).expect(200);
      const { results, created, failed } = res.body.data;
      expect([created, failed]).toEqual([1, 3]);
      expect(results[0]).toEqual({ index: 0, success: true, id: expect.any(Number) });
      const unknownErrors = JSON.stringify(results[3].errors).split(String(UNKNOWN_ORDER)).join('ID');
      expect(JSON.stringify(results[1].errors).split(String(b.id)).join('ID')).toBe(unknownErrors);
      expect(JSON.stringify(results[2].errors).split(String(n.id)).join('ID')).toBe(unknownErrors);
      expect([await leadsIn(b.id), await leadsIn(n.id)]).toEqual(before);
      const ok = await post('/v2/lead/create-batch/', { leads: [leadBody(b)] }, keyB).expect(200);
      expect(ok.body.data.created).toBe(1);
    });

    it('upsert: another client’s order is a 400 as an unknown order, its lead with the key untouched; the key matches only in the body’s order', async () => {
      const body = (order: TestOrder, extra: Record<string, unknown> = {}) =>
        leadBody(order, { matchBy: 'externalIdCrmA', externalIdCrmA: shared.ext, phone: shared.phone, name: 'Upserted', ...extra });
      const rowB = await leadRow(leadB);
      const rowN = await leadRow(leadN);
      for (const order of [b, n]) {
        const foreign = await post('/v2/lead/upsert/', body(order), keyA);
        const unknown = await post('/v2/lead/upsert/', body(order, { orderId: UNKNOWN_ORDER }), keyA);
        expect(foreign.status).toBe(400);
        expect(withoutId(foreign, order.id)).toEqual(withoutId(unknown, UNKNOWN_ORDER));
      }
      expect([await leadRow(leadB), await leadRow(leadN)]).toEqual([rowB, rowN]);

      // In the key's own order the same value updates its own lead, never B's.
      const own = await post('/v2/lead/upsert/', body(a1), keyA).expect(200);
      expect(own.body.data).toEqual({ id: leadA, created: false });
      expect(await leadRow(leadB)).toEqual(rowB);
      const mine = await post('/v2/lead/upsert/', body(b), keyB).expect(200);
      expect(mine.body.data).toEqual({ id: leadB, created: false });
      expect((await leadRow(leadB)).name).toBe('Upserted');
    });
  });

  describe('asynchronous creates', () => {
    const waitForJob = async (jobId: string, key: string) => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const res = await get(`/v2/lead/create-async/${jobId}/`, key).expect(200);
        if (res.body.data.status !== 'queued' || Date.now() > deadline) return res.body.data as { status: string; leadId: number | null; errors: unknown[] };
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const accept = async (body: unknown, key?: string) => {
      const res = await post('/v2/lead/create-async/', body, key).expect(200);
      return res.headers['x-job-id'];
    };

    it('refuses at once a job naming another client’s order as one naming an unknown order (no oracle): no job, no lead', async () => {
      const unknown = await post('/v2/lead/create-async/', leadBody(a1, { orderId: UNKNOWN_ORDER }), keyA).expect(400);
      for (const order of [b, n]) {
        const before = await leadsIn(order.id);
        const jobsBefore = (await t.ds.query(`SELECT count(*)::int AS n FROM lead_async_job WHERE order_id = $1`, [order.id]))[0].n;
        const foreign = await post('/v2/lead/create-async/', leadBody(order), keyA).expect(400);
        expect(foreign.headers['x-job-id']).toBeUndefined();
        expect(withoutId(foreign, order.id)).toEqual(withoutId(unknown, UNKNOWN_ORDER));
        expect(await leadsIn(order.id)).toBe(before);
        expect((await t.ds.query(`SELECT count(*)::int AS n FROM lead_async_job WHERE order_id = $1`, [order.id]))[0].n).toBe(jobsBefore);
      }
      const own = await waitForJob(await accept(leadBody(a1), keyA), keyA);
      expect(own).toMatchObject({ status: 'done', leadId: expect.any(Number) });
      expect((await get(`/v2/lead/detail/${own.leadId}/`, keyA).expect(200)).body.data.orderId).toBe(a1.id);
    });

    it('job status: another client’s job, or an unrestricted key’s job in an order not of the client, is a 404 as an unknown job', async () => {
      const unknownId = randomUUID();
      const unknown = await get(`/v2/lead/create-async/${unknownId}/`, keyA);
      expect(unknown.status).toBe(404);
      const ofB = await accept(leadBody(b), keyB);
      const inB = await accept(leadBody(b));
      const inN = await accept(leadBody(n));
      const inA = await accept(leadBody(a1));
      for (const jobId of [ofB, inB, inN]) {
        await waitForJob(jobId, t.apiKey);
        expect(withoutId(await get(`/v2/lead/create-async/${jobId}/`, keyA), jobId)).toEqual(withoutId(unknown, unknownId));
      }
      expect((await waitForJob(ofB, keyB)).status).toBe('done');
      expect((await waitForJob(inB, keyB)).status).toBe('done');
      expect((await waitForJob(inA, keyA)).status).toBe('done');
    });

    it('the set-based drain applies each job’s own client: a client key’s job in another client’s order fails, the others are created', async () => {
      const keyAId = (await t.ds.query(`SELECT id FROM api_key WHERE client_id = $1 ORDER BY id LIMIT 1`, [clientA]))[0].id as number;
      const jobs = [
        { id: randomUUID(), order: a1, keyId: keyAId },
        { id: randomUUID(), order: b, keyId: keyAId },
        { id: randomUUID(), order: b, keyId: null },
      ];
      for (const j of jobs) {
        await t.ds.query(`INSERT INTO lead_async_job (id, order_id, payload, api_key_id) VALUES ($1, $2, $3, $4)`, [
          j.id,
          j.order.id,
          JSON.stringify(leadBody(j.order)),
          j.keyId,
        ]);
      }
      const before = await leadsIn(b.id);
      await t.app.get(LeadCreateJobsService).processCreateJobs(jobs.map((j) => ({ id: j.id, retryCount: 0 })));
      const states = await t.ds.query(`SELECT id, state, errors FROM lead_async_job WHERE id = ANY($1::uuid[])`, [jobs.map((j) => j.id)]);
      const state = (id: string) => states.find((s: { id: string }) => s.id === id);
      expect([state(jobs[0].id).state, state(jobs[1].id).state, state(jobs[2].id).state]).toEqual(['done', 'failed', 'done']);
      expect(state(jobs[1].id).errors).toEqual([{ field: 'orderId', message: `order ${b.id} does not exist` }]);
      expect(await leadsIn(b.id)).toBe(before + 1);
    });
  });

  describe('one lead by id', () => {
    const reads = ['/v2/lead/detail/', '/v1/lead/detail/', '/v2/lead/callable/'];

    it('detail (v1, v2) and callable: another client’s lead or a lead of no client is a 404 as an unknown lead', async () => {
      for (const path of reads) {
        const unknown = await get(`${path}${UNKNOWN_LEAD}/`, keyA);
        expect(unknown.status).toBe(404);
        for (const id of [leadB, leadN]) expect(withoutId(await get(`${path}${id}/`, keyA), id)).toEqual(withoutId(unknown, UNKNOWN_LEAD));
        await get(`${path}${leadA}/`, keyA).expect(200);
        await get(`${path}${leadB}/`, keyB).expect(200);
        await get(`${path}${leadN}/`).expect(200);
      }
    });

    it('update (v1, v2): another client’s lead is a 404 as an unknown lead, its row untouched; with its own client’s key it changes', async () => {
      const changes = [
        ['/v2/lead/update/', { name: 'Changed' }],
        ['/v2/lead/update/', { phone: testPhone(), statusId: 10 }],
        ['/v1/lead/update/', { client_name: 'Changed' }],
      ] as const;
      for (const [path, body] of changes) {
        const unknown = await post(`${path}${UNKNOWN_LEAD}/`, body, keyA);
        expect(unknown.status).toBe(404);
        for (const id of [leadB, leadN]) {
          const before = await leadRow(id);
          expect(withoutId(await post(`${path}${id}/`, body, keyA), id)).toEqual(withoutId(unknown, UNKNOWN_LEAD));
          expect(await leadRow(id)).toEqual(before);
        }
      }
      await post(`/v2/lead/update/${leadB}/`, { name: 'B by B' }, keyB).expect(200);
      await post(`/v1/lead/update/${leadB}/`, { client_name: 'B by B v1' }, keyB).expect(200);
      expect((await leadRow(leadB)).name).toBe('B by B v1');
      await post(`/v2/lead/update/${leadA}/`, { name: 'A by A' }, keyA).expect(200);
      await post(`/v2/lead/update/${leadN}/`, { name: 'N by all' }).expect(200);
    });
  });

  describe('lists and lookups', () => {
    const page = async (query: string, key?: string) => (await get(`/v2/lead/?limit=100&${query}`, key).expect(200)).body.data;
    const orderIdsOf = (list: { orderId: number }[]) => [...new Set(list.map((l) => l.orderId))].sort((x, y) => x - y);

    it('the list holds only the client’s orders and counts exactly them; other orderIds add nothing', async () => {
      const ownCount = await countWhere('order_id = ANY($1)', [[a1.id, a2.id]]);
      const all = await page('', keyA);
      expect(all.total).toBe(ownCount);
      expect(all.list).toHaveLength(ownCount);
      expect(orderIdsOf(all.list)).toEqual([a1.id, a2.id]);

      const mixed = await page(`orderIds=${a1.id},${b.id},${n.id},${UNKNOWN_ORDER}`, keyA);
      expect(mixed.total).toBe(await leadsIn(a1.id));
      expect(orderIdsOf(mixed.list)).toEqual([a1.id]);
      for (const other of [b.id, n.id]) expect(await page(`orderIds[]=${other}`, keyA)).toEqual({ list: [], next: 0, total: 0 });

      const filtered = await page(`statusIds=1&createdAt[0]=2000-01-01&orderIds=${a2.id},${b.id}`, keyA);
      expect(filtered.total).toBe(await countWhere('order_id = $1 AND status_id = 1', [a2.id]));
      // Unrestricted keys: everything, as before.
      expect((await page('')).total).toBe(await countWhere('true', []));
      expect((await page(`orderIds=${b.id}`, keyB)).total).toBe(await leadsIn(b.id));
    });

    it('pages of a client’s list follow one another with the same total', async () => {
      const first = (await get('/v2/lead/?limit=2&offset=0', keyA).expect(200)).body.data;
      const second = (await get('/v2/lead/?limit=2&offset=2', keyA).expect(200)).body.data;
      expect(second.total).toBe(first.total);
      expect(second.list[0].id).toBeGreaterThan(first.list[1].id);
      expect(orderIdsOf([...first.list, ...second.list]).every((id) => [a1.id, a2.id].includes(id))).toBe(true);
    });

    it('lookups by external id and by phone find only the client’s leads', async () => {
      for (const query of [`externalIdCrmA=${shared.ext}`, `phone=${encodeURIComponent(shared.phone)}`]) {
        const own = await page(query, keyA);
        expect(orderIdsOf(own.list)).toEqual([a1.id, a2.id]);
        expect(own.total).toBe(own.list.length);
        expect(await page(`${query}&orderIds=${b.id},${n.id}`, keyA)).toEqual({ list: [], next: 0, total: 0 });
        expect(orderIdsOf((await page(query, keyB)).list)).toEqual([b.id]);
        expect(orderIdsOf((await page(query)).list)).toEqual([a1.id, a2.id, b.id, n.id]);
      }
      // The phone is still checked first: a 400 for a bad one, orders or not.
      await get('/v2/lead/?phone=123', keyNone).expect(400);
    });

    it('a client without orders gets an empty page and total 0', async () => {
      expect(await page('', keyNone)).toEqual({ list: [], next: 0, total: 0 });
      expect(await page(`orderIds=${a1.id}`, keyNone)).toEqual({ list: [], next: 0, total: 0 });
      expect(await page(`externalIdCrmA=${shared.ext}`, keyNone)).toEqual({ list: [], next: 0, total: 0 });
    });

    it('a client of more than 64 orders: the exact total and every page within its orders', async () => {
      const many = await insertClient(t);
      const orders: TestOrder[] = [];
      for (let i = 0; i < 70; i++) {
        const o = await createLeadOrder(t);
        await assignOrderToClient(t, o.id, many);
        orders.push(o);
      }
      await post('/v2/lead/create-batch/', { leads: orders.map((o) => leadBody(o)) }).expect(200);
      const key = await clientKeyFor(t, many);
      const ids = new Set(orders.map((o) => o.id));
      const seen: number[] = [];
      for (let offset = 0; offset < 70; offset += 30) {
        const res = (await get(`/v2/lead/?limit=30&offset=${offset}`, key).expect(200)).body.data;
        expect(res.total).toBe(70);
        for (const l of res.list) expect(ids.has(l.orderId)).toBe(true);
        seen.push(...res.list.map((l: { id: number }) => l.id));
      }
      expect(new Set(seen).size).toBe(70);
    });
  });

  it('the status catalogues are reference data: client keys read them', async () => {
    const list = (await get('/v2/lead-status/', keyA).expect(200)).body.data;
    expect(list.length).toBeGreaterThan(0);
    await get(`/v2/lead-status/detail/${list[0].id}/`, keyA).expect(200);
    await request(t.http).post('/v2/lead-status/create/').set('X-Api-Key', keyA).send({}).expect(403);
  });
});
