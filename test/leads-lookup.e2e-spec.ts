import request from 'supertest';
import { createLead, createLeadOrder, testPhone, TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

const COLUMN: Record<string, string> = {
  phone: 'phone',
  externalIdCrmA: 'external_id_crm_a',
  externalIdCrmB: 'external_id_crm_b',
  externalIdCrmC: 'external_id_crm_c',
  externalIdCrmD: 'external_id_crm_d',
};

describe('GET /v2/lead/: lookup by phone and external ids', () => {
  let t: TestApp;
  let a: TestOrder;
  let b: TestOrder;
  const phone = testPhone();
  const other = testPhone();
  const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey);

  /** The truth: the matching ids straight from the table. */
  async function bruteIds(key: string, value: string, orderIds?: number[], statusIds?: number[]): Promise<number[]> {
    const rows: { id: number }[] = await t.ds.query(
      `SELECT id FROM lead WHERE ${COLUMN[key]} = $1 AND ($2::int[] IS NULL OR order_id = ANY($2)) AND ($3::int[] IS NULL OR status_id = ANY($3)) ORDER BY id`,
      [value, orderIds ?? null, statusIds ?? null],
    );
    return rows.map((r) => r.id);
  }

  /** Every page of a lookup, checking `total` and `next` on each. */
  async function allPages(query: string, limit: number): Promise<number[]> {
    const ids: number[] = [];
    let total = -1;
    for (let offset = 0; ; offset += limit) {
      const res = await get(`/v2/lead/?${query}&limit=${limit}&offset=${offset}`).expect(200);
      const page = res.body.data;
      if (total >= 0) expect(page.total).toBe(total);
      total = page.total;
      expect(page.next).toBe(offset + page.list.length);
      ids.push(...page.list.map((l: { id: number }) => l.id));
      if (page.list.length < limit) break;
    }
    expect(ids).toHaveLength(total);
    return ids;
  }

  beforeAll(async () => {
    t = await createTestApp();
    a = await createLeadOrder(t);
    b = await createLeadOrder(t);
    for (let i = 0; i < 7; i++) {
      await createLead(t, i % 2 ? a : b, { phone, externalIdCrmA: 'crm-a-7', externalIdCrmB: `crm-b-${i % 3}`, externalIdCrmC: 'c-1', externalIdCrmD: 'd-1' });
      await createLead(t, a, { phone: other, externalIdCrmA: `crm-a-other-${i}` });
    }
    // Two of the phone's leads in order a move to another status.
    const rows: { id: number }[] = await t.ds.query(`SELECT id FROM lead WHERE order_id = $1 AND phone = $2 ORDER BY id LIMIT 2`, [a.id, phone]);
    for (const r of rows) await request(t.http).post(`/v2/lead/update/${r.id}/`).set('X-Api-Key', t.apiKey).send({ statusId: 3 }).expect(200);
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['phone', () => phone],
    ['externalIdCrmA', () => 'crm-a-7'],
    ['externalIdCrmB', () => 'crm-b-1'],
    ['externalIdCrmC', () => 'c-1'],
    ['externalIdCrmD', () => 'd-1'],
  ])('by %s: every page, exact total, alone and with orderIds and statusIds', async (key, value) => {
    const v = encodeURIComponent(value());
    const all = await bruteIds(key, value());
    expect(all.length).toBeGreaterThan(1);
    expect(await allPages(`${key}=${v}`, 2)).toEqual(all);
    expect(await allPages(`${key}=${v}&orderIds[]=${a.id}`, 2)).toEqual(await bruteIds(key, value(), [a.id]));
    expect(await allPages(`${key}=${v}&orderIds=${a.id},${b.id}&statusIds=3`, 1)).toEqual(await bruteIds(key, value(), [a.id, b.id], [3]));
  });

  it('a list item of a lookup has the list shape (previousLeadId, nextLeadId)', async () => {
    const res = await get(`/v2/lead/?externalIdCrmA=crm-a-other-3`).expect(200);
    expect(res.body.data.total).toBe(1);
    expect(res.body.data.list[0]).toMatchObject({ phone: other, externalIdCrmA: 'crm-a-other-3', orderId: a.id, previousLeadId: expect.any(Number) });
  });

  it('a phone in another format finds the same leads (normalised as on create)', async () => {
    const plain = await get(`/v2/lead/?phone=${encodeURIComponent(phone)}&limit=100`).expect(200);
    const noPlus = await get(`/v2/lead/?phone=${phone.slice(1)}&limit=100`).expect(200);
    const spaced = await get(`/v2/lead/?phone=${encodeURIComponent(`+7 (${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`)}&limit=100`).expect(200);
    expect(plain.body.data.total).toBe(7);
    expect(noPlus.body.data).toEqual(plain.body.data);
    expect(spaced.body.data).toEqual(plain.body.data);
  });

  it('keys combine (all must match); an unknown value is an empty page with total 0; offset past the end keeps the total', async () => {
    const both = await get(`/v2/lead/?phone=${encodeURIComponent(phone)}&externalIdCrmB=crm-b-0&limit=100`).expect(200);
    const truth: { id: number }[] = await t.ds.query(`SELECT id FROM lead WHERE phone = $1 AND external_id_crm_b = 'crm-b-0' ORDER BY id`, [phone]);
    expect(both.body.data.list.map((l: { id: number }) => l.id)).toEqual(truth.map((r) => r.id));
    expect(both.body.data.total).toBe(truth.length);
    expect((await get(`/v2/lead/?externalIdCrmA=nobody`).expect(200)).body.data).toEqual({ list: [], next: 0, total: 0 });
    expect((await get(`/v2/lead/?externalIdCrmA=crm-a-7&offset=50`).expect(200)).body.data).toEqual({ list: [], next: 50, total: 7 });
  });

  it.each([
    ['phone=not-a-phone', 'phone'],
    [`externalIdCrmC=${'x'.repeat(256)}`, 'externalIdCrmC'],
    ['externalIdCrmA=a&externalIdCrmA=b', 'externalIdCrmA'],
  ])('400 naming the field: %s', async (query, field) => {
    const res = await get(`/v2/lead/?${query}`).expect(400);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('an empty lookup parameter is an absent one (as every empty query parameter)', async () => {
    const plain = await get(`/v2/lead/?orderIds=${a.id}&limit=100`).expect(200);
    expect((await get(`/v2/lead/?orderIds=${a.id}&limit=100&phone=&externalIdCrmA=`).expect(200)).body.data).toEqual(plain.body.data);
  });

  it('reads only the key index: the plan of a lookup uses the (key, id) index', async () => {
    for (const [column, index] of [
      ['external_id_crm_a', 'lead_external_a_id_idx'],
      ['phone', 'lead_phone_id_idx'],
    ]) {
      const plan: { 'QUERY PLAN': string }[] = await t.ds.query(`EXPLAIN SELECT t.id FROM lead t WHERE t.${column} = $1 ORDER BY t.id LIMIT 50`, ['x']);
      expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain(index);
    }
  });
});
