import request from 'supertest';
import { createLead, createLeadOrder, leadBody, testPhone, TestOrder } from './factories/leads';
import { feedHead, followFeed } from './support/event-feed';
import { createTestApp, TestApp } from './support/test-app';

interface Links {
  id: number;
  previous_lead_id: number | null;
  next_lead_id: number | null;
  is_secondary: boolean;
}

describe('POST /v2/lead/create-batch/', () => {
  let t: TestApp;
  let order: TestOrder;
  const post = (body: unknown, key?: string) => {
    const r = request(t.http).post('/v2/lead/create-batch/').set('X-Api-Key', t.apiKey);
    if (key) r.set('Idempotency-Key', key);
    return r.send(body as object);
  };
  const leadsOf = async (orderId: number) => (await t.ds.query(`SELECT count(*)::int AS n FROM lead WHERE order_id = $1`, [orderId]))[0].n as number;
  const links = async (ids: number[]): Promise<Links[]> =>
    t.ds.query(`SELECT id, previous_lead_id, next_lead_id, is_secondary FROM lead WHERE id = ANY($1::int[]) ORDER BY id`, [ids]);

  beforeAll(async () => {
    t = await createTestApp();
    order = await createLeadOrder(t, { defaultUtcOffset: 3 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates the valid items, reports each invalid one in place, in item order', async () => {
    const o = await createLeadOrder(t);
    const body = {
      leads: [
        leadBody(o, { name: 'first', externalIdCrmA: 'batch-a-1' }),
        leadBody(o, { phone: 'not a phone' }),
        leadBody(o, { orderCode: 'another-order' }),
        'not an object',
        leadBody(o, { priority: 'high', statusId: 99 }),
        leadBody(o, { name: 'last', sourceComment: { rooms: 2 }, timeZone: 'Asia/Kolkata' }),
      ],
    };
    const res = await post(body).expect(200);
    expect(res.body.success).toBe(true);
    const { results, created, failed } = res.body.data;
    expect({ created, failed }).toEqual({ created: 2, failed: 4 });
    expect(results.map((r: { index: number; success: boolean }) => [r.index, r.success])).toEqual([
      [0, true],
      [1, false],
      [2, false],
      [3, false],
      [4, false],
      [5, true],
    ]);
    expect(results[1].errors).toEqual([{ field: 'phone', message: expect.any(String) }]);
    expect(results[2].errors).toEqual([{ field: 'orderCode', message: expect.stringContaining('different order') }]);
    expect(results[3].errors).toEqual([{ field: '', message: expect.stringContaining('must be an object') }]);
    expect(results[4].errors.map((e: { field: string }) => e.field).sort()).toEqual(['priority']);
    expect(results[0].id).toBeLessThan(results[5].id);
    expect(await leadsOf(o.id)).toBe(2);
    const first = (await request(t.http).get(`/v2/lead/detail/${results[0].id}/`).set('X-Api-Key', t.apiKey).expect(200)).body.data;
    expect(first).toMatchObject({ name: 'first', externalIdCrmA: 'batch-a-1', orderId: o.id, isSecondary: false, createMethod: 'API' });
    const last = (await request(t.http).get(`/v2/lead/detail/${results[5].id}/`).set('X-Api-Key', t.apiKey).expect(200)).body.data;
    expect(last).toMatchObject({ name: 'last', sourceComment: '{"rooms":2}' });
    // Every field of the single create is stored by the batch too (both take their columns from LEAD_COLUMNS).
    const single = await createLead(t, o, { name: 'last', sourceComment: { rooms: 2 }, timeZone: 'Asia/Kolkata' });
    const pick = (l: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(l).filter(([k]) => !['id', 'createdAt', 'updatedAt', 'phone', 'planningCallDateTime'].includes(k)));
    expect(pick(last)).toEqual(pick((await request(t.http).get(`/v2/lead/detail/${single}/`).set('X-Api-Key', t.apiKey).expect(200)).body.data));
  });

  it("an item with a status the create refuses, or an unknown order, fails alone with the single create's errors", async () => {
    const o = await createLeadOrder(t);
    const items = [leadBody(o, { statusId: 10 }), leadBody(o), { ...leadBody(o), orderId: 2_000_000_000 }];
    const res = await post({ leads: items }).expect(200);
    const { results } = res.body.data;
    expect(results[1]).toEqual({ index: 1, success: true, id: expect.any(Number) });
    for (const i of [0, 2]) {
      const single = await request(t.http).post('/v2/lead/create/').set('X-Api-Key', t.apiKey).send(items[i]).expect(400);
      expect(results[i]).toEqual({ index: i, success: false, errors: single.body.data.errors });
    }
    expect(results[0].errors.map((e: { field: string }) => e.field)).toEqual(['statusId']);
    expect(results[2].errors.map((e: { field: string }) => e.field)).toEqual(['orderId']);
    expect(await leadsOf(o.id)).toBe(1);
  });

  it('links items of one phone to each other in item order and to the latest existing lead, as sequential creates would', async () => {
    const o = await createLeadOrder(t);
    const p = testPhone();
    const q = testPhone();
    const existing = await createLead(t, o, { phone: p });
    const res = await post({
      leads: [
        leadBody(o, { phone: p }),
        leadBody(o, { phone: q }),
        leadBody(o, { phone: p.replace('+', '') }), // another format of the same phone
        leadBody(o, { phone: 'bad' }),
        leadBody(o, { phone: p }),
        leadBody(o, { phone: q }),
      ],
    }).expect(200);
    const ids = res.body.data.results.map((r: { id?: number }) => r.id);
    const [a, b, c, , d, e] = ids;
    expect([a, b, c, d, e]).toEqual([...[a, b, c, d, e]].sort((x, y) => x - y));
    expect(await links([existing, a, b, c, d, e])).toEqual([
      { id: existing, previous_lead_id: null, next_lead_id: a, is_secondary: false },
      { id: a, previous_lead_id: existing, next_lead_id: c, is_secondary: true },
      { id: b, previous_lead_id: null, next_lead_id: e, is_secondary: false },
      { id: c, previous_lead_id: a, next_lead_id: d, is_secondary: true },
      { id: d, previous_lead_id: c, next_lead_id: null, is_secondary: true },
      { id: e, previous_lead_id: b, next_lead_id: null, is_secondary: true },
    ]);
    // A later single create continues the chain from the batch's last lead.
    const after = await createLead(t, o, { phone: p });
    expect(await links([d, after])).toEqual([
      { id: d, previous_lead_id: c, next_lead_id: after, is_secondary: true },
      { id: after, previous_lead_id: d, next_lead_id: null, is_secondary: true },
    ]);
  });

  it('concurrent batches and single creates of one phone keep one chain (no lost link, no fork)', async () => {
    const o = await createLeadOrder(t);
    const p = testPhone();
    await Promise.all([
      post({ leads: Array.from({ length: 20 }, () => leadBody(o, { phone: p })) }).expect(200),
      post({ leads: Array.from({ length: 20 }, () => leadBody(o, { phone: p })) }).expect(200),
      ...Array.from({ length: 5 }, () => createLead(t, o, { phone: p })),
    ]);
    const rows: Links[] = await t.ds.query(`SELECT id, previous_lead_id, next_lead_id, is_secondary FROM lead WHERE order_id = $1 ORDER BY id`, [o.id]);
    expect(rows).toHaveLength(45);
    rows.forEach((r, i) => {
      expect(r.previous_lead_id).toBe(i === 0 ? null : rows[i - 1].id);
      expect(r.next_lead_id).toBe(i === rows.length - 1 ? null : rows[i + 1].id);
    });
  });

  it.each([
    ['a JSON array', [leadBody({ id: 1, code: 'x' })]],
    ['no leads', {}],
    ['leads not an array', { leads: { 0: {} } }],
    ['empty leads', { leads: [] }],
  ])('400 for the whole request (%s), nothing stored', async (_what, body) => {
    const before = await t.ds.query(`SELECT count(*)::int AS n FROM lead`);
    const res = await post(body).expect(400);
    expect(res.body.success).toBe(false);
    expect(await t.ds.query(`SELECT count(*)::int AS n FROM lead`)).toEqual(before);
  });

  it('400 for more than 1,000 items, nothing stored', async () => {
    const o = await createLeadOrder(t);
    const item = { leadType: 'straight', phone: '+79160000001', orderId: o.id, orderCode: o.code };
    const res = await post({ leads: Array.from({ length: 1001 }, () => item) }).expect(400);
    expect(JSON.stringify(res.body.data.errors)).toContain('leads');
    expect(await leadsOf(o.id)).toBe(0);
  });

  it('takes 1,000 leads with their usual fields in one request', async () => {
    const o = await createLeadOrder(t);
    const leads = Array.from({ length: 1000 }, (_, i) =>
      leadBody(o, {
        phone: testPhone(),
        name: `Lead ${i}`,
        externalIdCrmA: `bulk-${i}`,
        priority: i % 5,
        source: 'organic',
        ip: '203.0.113.7',
        sourceComment: 'from the landing page',
        messengerUserName: `m${i}`,
      }),
    );
    expect(JSON.stringify({ leads }).length).toBeLessThan(1024 * 1024);
    const res = await post({ leads }).expect(200);
    expect(res.body.data).toMatchObject({ created: 1000, failed: 0 });
    const ids: number[] = res.body.data.results.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const stored: { id: number; ext: string }[] = await t.ds.query(`SELECT id, external_id_crm_a AS ext FROM lead WHERE order_id = $1 ORDER BY id`, [o.id]);
    expect(stored.map((s) => s.ext)).toEqual(leads.map((_, i) => `bulk-${i}`));
    // The list total (counters) follows the batch.
    const list = await request(t.http).get(`/v2/lead/?orderIds=${o.id}&limit=1`).set('X-Api-Key', t.apiKey).expect(200);
    expect(list.body.data.total).toBe(1000);
  });

  it('a body over the route limit is a 413', async () => {
    const o = await createLeadOrder(t);
    const leads = Array.from({ length: 20 }, () => leadBody(o, { sourceComment: 'x'.repeat(60_000) }));
    const res = await post({ leads }).expect(413);
    expect(res.body.message).toContain('1 MiB');
    expect(await leadsOf(o.id)).toBe(0);
  });

  it('every lead a batch creates is a lead.created event in the feed, in item order, as detail shows it', async () => {
    const o = await createLeadOrder(t);
    const p = testPhone();
    const head = await feedHead(t);
    const res = await post({ leads: [leadBody(o, { phone: p, name: 'Ev 1' }), leadBody(o, { phone: 'x' }), leadBody(o, { phone: p, name: 'Ev 2' })] }).expect(
      200,
    );
    const ids: number[] = res.body.data.results.filter((r: { success: boolean }) => r.success).map((r: { id: number }) => r.id);
    const { events } = await followFeed(t, head, (es) => es.some((e) => e.type === 'lead.created' && e.data.lead.id === ids[1]), { query: { orderIds: o.id } });
    const created = events.filter((e) => e.type === 'lead.created');
    expect(created.map((e) => e.data.lead.id)).toEqual(ids);
    for (const [i, e] of created.entries()) {
      expect(e.data.lead).toEqual((await request(t.http).get(`/v2/lead/detail/${ids[i]}/`).set('X-Api-Key', t.apiKey).expect(200)).body.data);
    }
  });

  describe('Idempotency-Key', () => {
    it('replays the whole result; another body with the key is a 409', async () => {
      const body = { leads: [leadBody(order), leadBody(order, { phone: 'x' }), leadBody(order)] };
      const first = await post(body, 'batch-replay-1').expect(200);
      const count = await leadsOf(order.id);
      const again = await post(body, 'batch-replay-1').expect(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await leadsOf(order.id)).toBe(count);
      await post({ leads: [leadBody(order)] }, 'batch-replay-1').expect(409);
      expect(await leadsOf(order.id)).toBe(count);
    });

    it('a retry whose idempotency record was lost creates nothing twice and answers the same ids', async () => {
      const o = await createLeadOrder(t);
      const p = testPhone();
      const body = { leads: [leadBody(o, { phone: p }), leadBody(o, { phone: 'x' }), leadBody(o, { phone: p }), leadBody(o)] };
      const first = await post(body, 'batch-lost-1').expect(200);
      await t.ds.query(`DELETE FROM idempotency_record WHERE key = 'batch-lost-1'`);
      const retry = await post(body, 'batch-lost-1').expect(200);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      expect(retry.body.data).toEqual(first.body.data);
      expect(await leadsOf(o.id)).toBe(3);
      // Without the key the same body is a new batch.
      await post(body).expect(200);
      expect(await leadsOf(o.id)).toBe(6);
    });
  });
});
