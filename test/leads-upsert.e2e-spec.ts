import request from 'supertest';
import { createLead, createLeadOrder, leadBody, testPhone, TestOrder } from './factories/leads';
import { feedHead, followFeed } from './support/event-feed';
import { createTestApp, TestApp } from './support/test-app';

describe('POST /v2/lead/upsert/', () => {
  let t: TestApp;
  let order: TestOrder;
  const upsert = (body: unknown, key?: string) => {
    const r = request(t.http).post('/v2/lead/upsert/').set('X-Api-Key', t.apiKey);
    if (key) r.set('Idempotency-Key', key);
    return r.send(body as object);
  };
  const detail = async (id: number) => (await request(t.http).get(`/v2/lead/detail/${id}/`).set('X-Api-Key', t.apiKey).expect(200)).body.data;
  const count = async (where: string, params: unknown[]) => (await t.ds.query(`SELECT count(*)::int AS n FROM lead WHERE ${where}`, params))[0].n as number;

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    order = await createLeadOrder(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates when nothing matches (create rules), then updates the same lead (update rules)', async () => {
    const created = await upsert({ ...leadBody(order, { name: 'Anna', externalIdCrmA: 'up-1', priority: 1 }), matchBy: 'externalIdCrmA' }).expect(200);
    expect(created.body).toEqual({ success: true, message: '', data: { id: expect.any(Number), created: true } });
    const id = created.body.data.id;
    const before = await detail(id);
    expect(before).toMatchObject({ name: 'Anna', externalIdCrmA: 'up-1', priority: 1, statusId: 1 });

    // The update path allows what only an update allows (a qualified status) and changes only what the body sends.
    const updated = await upsert({
      ...leadBody(order, { name: 'Anna P.', externalIdCrmA: 'up-1', statusId: 10, externalIdCrmB: 'b-9' }),
      matchBy: 'externalIdCrmA',
    }).expect(200);
    expect(updated.body.data).toEqual({ id, created: false });
    const after = await detail(id);
    expect(after).toMatchObject({ name: 'Anna P.', statusId: 10, externalIdCrmB: 'b-9', priority: 1, leadType: before.leadType });
    expect(await count('external_id_crm_a = $1', ['up-1'])).toBe(1);
  });

  it('emits lead.created when it creates and lead.updated (the changed fields) when it updates', async () => {
    const o = await createLeadOrder(t);
    const head = await feedHead(t);
    const phone = testPhone();
    const id = (await upsert({ ...leadBody(o, { phone, externalIdCrmA: 'ev-up' }), matchBy: 'externalIdCrmA' }).expect(200)).body.data.id;
    await upsert({ ...leadBody(o, { phone, externalIdCrmA: 'ev-up', name: 'Renamed' }), matchBy: 'externalIdCrmA' }).expect(200);
    const { events } = await followFeed(t, head, (es) => es.some((e) => e.type === 'lead.updated'), { query: { orderIds: o.id } });
    expect(events.map((e) => [e.type, e.data.lead.id])).toEqual([
      ['lead.created', id],
      ['lead.updated', id],
    ]);
    expect(events[1].data.changed).toEqual(['name']);
  });

  it('the create path refuses what the create refuses (a qualified status), nothing stored', async () => {
    const res = await upsert({ ...leadBody(order, { externalIdCrmC: 'up-new-q', statusId: 10 }), matchBy: 'externalIdCrmC' }).expect(400);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toEqual(['statusId']);
    expect(await count('external_id_crm_c = $1', ['up-new-q'])).toBe(0);
  });

  it('the update path applies the daily qualified limit (409, nothing changed)', async () => {
    const limited = await createLeadOrder(t, { qualifiedLimit: 1 });
    await createLead(t, limited, { statusId: 1, externalIdCrmD: 'q-1' });
    await createLead(t, limited, { statusId: 1, externalIdCrmD: 'q-2' });
    await upsert({ ...leadBody(limited, { externalIdCrmD: 'q-1', statusId: 10 }), matchBy: 'externalIdCrmD' }).expect(200);
    const res = await upsert({ ...leadBody(limited, { externalIdCrmD: 'q-2', statusId: 10, name: 'changed' }), matchBy: 'externalIdCrmD' }).expect(409);
    expect(res.body.success).toBe(false);
    const rows = await t.ds.query(`SELECT status_id AS s, name FROM lead WHERE order_id = $1 AND external_id_crm_d = 'q-2'`, [limited.id]);
    expect(rows).toEqual([{ s: 1, name: null }]);
  });

  it("matches the most recent lead of the key, only in the body's order; phone compared normalised", async () => {
    const other = await createLeadOrder(t);
    const phone = testPhone();
    const older = await createLead(t, order, { phone });
    const newest = await createLead(t, order, { phone });
    const elsewhere = await createLead(t, other, { phone });
    const res = await upsert({ ...leadBody(order, { phone: phone.slice(1), name: 'by phone' }), matchBy: 'phone' }).expect(200);
    expect(res.body.data).toEqual({ id: newest, created: false });
    expect((await detail(newest)).name).toBe('by phone');
    expect((await detail(older)).name).toBe('');
    expect((await detail(elsewhere)).name).toBe('');
  });

  it('20 concurrent upserts of one new key create exactly one lead', async () => {
    const o = await createLeadOrder(t);
    const phone = testPhone();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => upsert({ ...leadBody(o, { phone, externalIdCrmB: 'race-1', name: `n${i}` }), matchBy: 'externalIdCrmB' })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(results.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.body.data.created)).toHaveLength(1);
    expect(await count('order_id = $1', [o.id])).toBe(1);
    // The lead holds one of the names sent (the last update to run).
    expect((await detail([...ids][0])).name).toMatch(/^n\d+$/);
  });

  it('concurrent upserts of one new phone create exactly one lead', async () => {
    const o = await createLeadOrder(t);
    const phone = testPhone();
    const results = await Promise.all(Array.from({ length: 20 }, () => upsert({ ...leadBody(o, { phone }), matchBy: 'phone' })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await count('order_id = $1', [o.id])).toBe(1);
  });

  it('20 concurrent upserts of one key with different phones all succeed, beside creates of those phones; duplicate chains stay consistent', async () => {
    const o = await createLeadOrder(t);
    const phones = Array.from({ length: 20 }, () => testPhone());
    // Earlier leads of some of the phones: the upserted lead joins and leaves their duplicate chains.
    for (const phone of phones.slice(0, 5)) await createLead(t, o, { phone });
    const upserts = phones.map((phone, i) => upsert({ ...leadBody(o, { phone, externalIdCrmB: 'race-phones', name: `n${i}` }), matchBy: 'externalIdCrmB' }));
    // Creates of the same phones at the same time take the (order, phone) locks a phone change takes.
    const creates = phones.slice(0, 10).map((phone) => request(t.http).post('/v2/lead/create/').set('X-Api-Key', t.apiKey).send(leadBody(o, { phone })));
    const results = await Promise.all([...upserts, ...creates]);
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(200));
    const upserted = results.slice(0, 20).map((r) => r.body.data as { id: number; created: boolean });
    expect(new Set(upserted.map((r) => r.id)).size).toBe(1);
    expect(upserted.filter((r) => r.created)).toHaveLength(1);

    const keyed: { id: number; phone: string }[] = await t.ds.query(`SELECT id, phone FROM lead WHERE order_id = $1 AND external_id_crm_b = 'race-phones'`, [
      o.id,
    ]);
    expect(keyed).toEqual([{ id: upserted[0].id, phone: expect.any(String) }]);
    expect(phones).toContain(keyed[0].phone);
    type Links = { id: number; phone: string; prev: number | null; next: number | null; secondary: boolean };
    const rows: Links[] = await t.ds.query(
      `SELECT id, phone, previous_lead_id AS prev, next_lead_id AS next, is_secondary AS secondary FROM lead WHERE order_id = $1`,
      [o.id],
    );
    expect(rows).toHaveLength(5 + 20 / 2 + 1);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const r of rows) {
      expect(r.secondary).toBe(r.prev !== null);
      if (r.prev !== null) expect(byId.get(r.prev)).toMatchObject({ next: r.id, phone: r.phone });
      if (r.next !== null) expect(byId.get(r.next)).toMatchObject({ prev: r.id, phone: r.phone });
    }
  });

  it.each([
    ['matchBy missing', (o: TestOrder) => ({ ...leadBody(o, { externalIdCrmA: 'x' }) }), 'matchBy'],
    ['matchBy not a key', (o: TestOrder) => ({ ...leadBody(o, { externalIdCrmA: 'x' }), matchBy: 'name' }), 'matchBy'],
    ['the matchBy value missing', (o: TestOrder) => ({ ...leadBody(o), matchBy: 'externalIdCrmA' }), 'externalIdCrmA'],
    ['the matchBy value empty', (o: TestOrder) => ({ ...leadBody(o, { externalIdCrmB: '' }), matchBy: 'externalIdCrmB' }), 'externalIdCrmB'],
    ['a bad phone', (o: TestOrder) => ({ ...leadBody(o, { phone: 'nope' }), matchBy: 'phone' }), 'phone'],
    ['order code of another order', (o: TestOrder) => ({ ...leadBody(o, { externalIdCrmA: 'x' }), orderCode: 'zzz', matchBy: 'externalIdCrmA' }), 'orderCode'],
  ])('400 when %s, nothing stored', async (_what, body, field) => {
    const o = await createLeadOrder(t);
    const res = await upsert(body(o)).expect(400);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await count('order_id = $1', [o.id])).toBe(0);
  });

  describe('Idempotency-Key', () => {
    it('replays the result; a retry whose record was lost does not create twice', async () => {
      const o = await createLeadOrder(t);
      const body = { ...leadBody(o, { externalIdCrmA: 'idem-1' }), matchBy: 'externalIdCrmA' };
      const first = await upsert(body, 'upsert-1').expect(200);
      expect(first.body.data.created).toBe(true);
      const again = await upsert(body, 'upsert-1').expect(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      await t.ds.query(`DELETE FROM idempotency_record WHERE key = 'upsert-1'`);
      const retry = await upsert(body, 'upsert-1').expect(200);
      expect(retry.body.data).toEqual(first.body.data);
      expect(await count('order_id = $1', [o.id])).toBe(1);
    });
  });
});
