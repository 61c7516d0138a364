import request from 'supertest';
import { seededRandom } from '../src/database/seed/random';
import { LeadCountersCompactor } from '../src/modules/leads/persistence/lead-counters.compactor';
import { createLead, createLeadOrder, TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

const HOUR = 3_600_000;
const BASE = Date.parse('2026-10-05T00:00:00Z');

const rng = seededRandom;

describe('GET /v2/lead/: pagination, filters, exact totals', () => {
  let t: TestApp;
  let a: TestOrder;
  let b: TestOrder;
  const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey);
  const compact = () => t.app.get(LeadCountersCompactor).compact();

  /** Inserts leads with given creation times (microsecond precision) and statuses; the counting triggers run as for any insert. */
  async function insertLeads(order: TestOrder, rows: { createdAt: string; statusId: number }[]) {
    await t.ds.query(
      `INSERT INTO lead (order_id, phone, lead_type, status_id, utc_offset, created_at, updated_at)
       SELECT $1, '+7916' || lpad((9000000 + i)::text, 7, '0'), 'straight', s, 3, c::timestamptz, c::timestamptz
       FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS x(c, s, i)`,
      [order.id, rows.map((r) => r.createdAt), rows.map((r) => r.statusId)],
    );
  }

  /** The truth: a plain count over the lead table. */
  async function bruteCount(filter: { orderIds?: number[]; statusIds?: number[]; from?: string; to?: string }): Promise<number> {
    const rows: { n: number }[] = await t.ds.query(
      `SELECT count(*)::int AS n FROM lead
       WHERE ($1::int[] IS NULL OR order_id = ANY($1)) AND ($2::int[] IS NULL OR status_id = ANY($2))
         AND ($3::timestamptz IS NULL OR created_at >= $3) AND ($4::timestamptz IS NULL OR created_at <= $4)`,
      [filter.orderIds ?? null, filter.statusIds ?? null, filter.from ?? null, filter.to ?? null],
    );
    return rows[0].n;
  }

  async function bruteIds(filter: { orderIds?: number[]; statusIds?: number[]; from?: string; to?: string }, offset: number, limit: number): Promise<number[]> {
    const rows: { id: number }[] = await t.ds.query(
      `SELECT id FROM lead
       WHERE ($1::int[] IS NULL OR order_id = ANY($1)) AND ($2::int[] IS NULL OR status_id = ANY($2))
         AND ($3::timestamptz IS NULL OR created_at >= $3) AND ($4::timestamptz IS NULL OR created_at <= $4)
       ORDER BY id OFFSET $5 LIMIT $6`,
      [filter.orderIds ?? null, filter.statusIds ?? null, filter.from ?? null, filter.to ?? null, offset, limit],
    );
    return rows.map((r) => r.id);
  }

  function query(filter: { orderIds?: number[]; statusIds?: number[]; from?: string; to?: string }, extra = ''): string {
    const parts: string[] = [];
    for (const id of filter.orderIds ?? []) parts.push(`orderIds[]=${id}`);
    if (filter.statusIds) parts.push(`statusIds=${filter.statusIds.join(',')}`);
    if (filter.from) parts.push(`createdAt[0]=${encodeURIComponent(filter.from)}`);
    if (filter.to) parts.push(`createdAt[1]=${encodeURIComponent(filter.to)}`);
    if (extra) parts.push(extra);
    return `/v2/lead/?${parts.join('&')}`;
  }

  beforeAll(async () => {
    t = await createTestApp();
    // Compaction runs when the test says so: the background one (every second) could fold the
    // deltas first, and "before compaction" would not be what the test checks.
    await t.app.get(LeadCountersCompactor).onModuleDestroy();
    a = await createLeadOrder(t);
    b = await createLeadOrder(t);
    const r = rng(42);
    const statuses = [1, 2, 3, 10, 20, 30];
    const at = (ms: number, us = 0) => `${new Date(ms).toISOString().slice(0, 23)}${String(us).padStart(3, '0')}Z`;
    for (const order of [a, b]) {
      const rows = Array.from({ length: 300 }, () => ({
        createdAt: at(BASE + Math.floor(r() * 240 * HOUR), Math.floor(r() * 1000)),
        statusId: statuses[Math.floor(r() * statuses.length)],
      }));
      // Leads on and next to hour boundaries.
      for (let h = 1; h < 240; h += 7) {
        rows.push(
          { createdAt: at(BASE + h * HOUR), statusId: 1 },
          { createdAt: at(BASE + h * HOUR - 1, 999), statusId: 2 },
          { createdAt: at(BASE + h * HOUR, 1), statusId: 10 },
        );
      }
      await insertLeads(order, rows);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('returns exact totals for filter combinations, before and after counter compaction', async () => {
    const r = rng(7);
    const randomInstant = () => {
      const ms = BASE - 2 * HOUR + Math.floor(r() * 244 * HOUR);
      const pick = r();
      // Round hours, a millisecond either side, or anything.
      const snapped = Math.round(ms / HOUR) * HOUR;
      return new Date(pick < 0.3 ? snapped : pick < 0.4 ? snapped - 1 : pick < 0.5 ? snapped + 1 : ms).toISOString();
    };
    const filters = Array.from({ length: 40 }, (_, i) => {
      let from: string | undefined = r() < 0.8 ? randomInstant() : undefined;
      let to: string | undefined = r() < 0.8 ? randomInstant() : undefined;
      if (from && to && from > to) [from, to] = [to, from];
      return {
        orderIds: i % 3 === 0 ? undefined : i % 3 === 1 ? [a.id] : [a.id, b.id],
        statusIds: i % 4 === 0 ? [1, 10] : i % 4 === 1 ? [20] : undefined,
        from,
        to,
      };
    });
    filters.push({ orderIds: undefined, statusIds: undefined, from: undefined, to: undefined });
    const check = async () => {
      for (const [i, f] of filters.entries()) {
        const offset = i % 2 === 0 ? 0 : 15;
        const res = await get(query(f, `limit=20&offset=${offset}`)).expect(200);
        expect({ f, total: res.body.data.total }).toEqual({ f, total: await bruteCount(f) });
        expect({ f, ids: res.body.data.list.map((l: { id: number }) => l.id) }).toEqual({ f, ids: await bruteIds(f, offset, 20) });
      }
    };
    await check();
    expect(await compact()).toBeGreaterThan(0);
    await check();

    // Status changes, new leads and deletions move the counters exactly.
    await t.ds.query(`UPDATE lead SET status_id = 20 WHERE order_id = $1 AND status_id = 1 AND id % 2 = 0`, [a.id]);
    // Leads moved into another hour and status keep being found (id bounds widen, never shrink).
    await t.ds.query(`UPDATE lead SET created_at = created_at + interval '30 hours', status_id = 30 WHERE order_id = $1 AND id % 11 = 0`, [b.id]);
    await t.ds.query(`DELETE FROM lead WHERE order_id = $1 AND status_id = 30 AND id % 3 = 0`, [b.id]);
    await insertLeads(a, [{ createdAt: new Date(BASE + 5 * HOUR).toISOString(), statusId: 3 }]);
    await check();
    await compact();
    await check();
    const rows: { n: number }[] = await t.ds.query(`SELECT count(*)::int AS n FROM lead_count_delta`);
    expect(rows[0].n).toBe(0);
  });

  it('walks pages ordered by id with next and an exact total; past the end is empty with the same total', async () => {
    const o = await createLeadOrder(t);
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push(await createLead(t, o));
    const seen: number[] = [];
    let offset = 0;
    for (;;) {
      const res = await get(`/v2/lead?orderIds=${o.id}&limit=3&offset=${offset}`).expect(200);
      const { list, next, total } = res.body.data;
      expect(total).toBe(7);
      expect(next).toBe(offset + list.length);
      seen.push(...list.map((l: { id: number }) => l.id));
      if (list.length < 3) break;
      offset = next;
    }
    expect(seen).toEqual(ids);
    const past = await get(`/v2/lead/?orderIds=${o.id}&offset=50`).expect(200);
    expect(past.body.data).toEqual({ list: [], next: 50, total: 7 });
  });

  it('list items carry the duplicate links and the order code, and accept the three array forms', async () => {
    const o = await createLeadOrder(t);
    const first = await createLead(t, o, { phone: '+79165550001' });
    const second = await createLead(t, o, { phone: '+79165550001' });
    for (const q of [`orderIds[]=${o.id}`, `orderIds=${o.id}`, `orderIds=${o.id},${o.id}`, `orderIds[0]=${o.id}`]) {
      const res = await get(`/v2/lead/?${q}`).expect(200);
      expect(res.body.data.total).toBe(2);
      const [x, y] = res.body.data.list;
      expect([x.id, x.previousLeadId, x.nextLeadId, x.orderCode]).toEqual([first, null, second, o.code]);
      expect([y.id, y.previousLeadId, y.nextLeadId, y.isSecondary]).toEqual([second, first, null, true]);
      expect(Object.keys(x)).toEqual(expect.arrayContaining(['previousLeadId', 'nextLeadId', 'planningCallDateTime', 'customValues']));
    }
  });

  it('takes createdAt[1] alone, a date-only upper bound through the end of its day, and statusIds[]', async () => {
    const upTo = await get(query({ orderIds: [a.id], to: '2026-10-05T10:30:00Z' })).expect(200);
    expect(upTo.body.data.total).toBe(await bruteCount({ orderIds: [a.id], to: '2026-10-05T10:30:00Z' }));
    const day = await get(`/v2/lead/?orderIds[]=${a.id}&createdAt[0]=2026-10-06&createdAt[1]=2026-10-06`).expect(200);
    expect(day.body.data.total).toBe(await bruteCount({ orderIds: [a.id], from: '2026-10-06T00:00:00Z', to: '2026-10-06T23:59:59.999Z' }));
    expect(day.body.data.total).toBeGreaterThan(0);
    const statuses = await get(`/v2/lead/?orderIds[]=${a.id}&statusIds[]=10&statusIds[]=20`).expect(200);
    expect(statuses.body.data.total).toBe(await bruteCount({ orderIds: [a.id], statusIds: [10, 20] }));
    for (const l of statuses.body.data.list) expect([10, 20]).toContain(l.statusId);
  });

  it('filters createdAt inclusively at the precision it is shown: a new lead is found with its own createdAt as both bounds', async () => {
    const order = await createLeadOrder(t);
    const id = await createLead(t, order);
    const shown = (await request(t.http).get(`/v2/lead/detail/${id}/`).set('X-Api-Key', t.apiKey).expect(200)).body.data.createdAt as string;
    expect(shown).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    const at = encodeURIComponent(shown);
    const res = await request(t.http).get(`/v2/lead/?orderIds=${order.id}&createdAt[0]=${at}&createdAt[1]=${at}`).set('X-Api-Key', t.apiKey).expect(200);
    expect(res.body.data.list.map((l: { id: number }) => l.id)).toEqual([id]);
    expect(res.body.data.total).toBe(1);
    const upTo = await request(t.http).get(`/v2/lead/?orderIds=${order.id}&createdAt[1]=${at}`).set('X-Api-Key', t.apiKey).expect(200);
    expect(upTo.body.data.total).toBe(1);
  });

  it('documents the lead endpoints in OpenAPI', async () => {
    const doc = (await request(t.http).get('/docs-json').expect(200)).body;
    for (const path of ['/v2/lead/create', '/v2/lead/create-async', '/v2/lead/update/{leadId}', '/v1/lead/create', '/v1/lead/update/{lead_id}']) {
      expect({ path, post: !!doc.paths[path]?.post }).toEqual({ path, post: true });
    }
    for (const path of [
      '/v2/lead',
      '/v2/lead/detail/{leadId}',
      '/v2/lead/create-async/{jobId}',
      '/v1/lead/detail/{lead_id}',
      '/v2/lead-status',
      '/v2/call-status',
    ]) {
      expect({ path, get: !!doc.paths[path]?.get }).toEqual({ path, get: true });
    }
    const params = doc.paths['/v2/lead'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['createdAt[0]', 'createdAt[1]', 'orderIds', 'statusIds', 'offset', 'limit']));
    expect(doc.components.schemas.CreateLeadV2Dto.required).toEqual(expect.arrayContaining(['leadType', 'phone', 'orderId', 'orderCode']));
    expect(doc.components.schemas.CreateLeadV2Dto.properties.adCampaignId.maxLength).toBe(64);
    expect(doc.components.schemas.CreateLeadV1Dto.required).toEqual(expect.arrayContaining(['lead_type', 'client_phone', 'order_id', 'order_code']));
  });

  it('rejects bad query parameters with 400', async () => {
    const cases: [string, string][] = [
      ['createdAt[0]=yesterday', 'createdAt[0]'],
      ['createdAt[1]=2026-13-01', 'createdAt[1]'],
      ['createdAt[0]=2026-10-06&createdAt[1]=2026-10-05', 'createdAt[1]'],
      ['createdAt[from]=2026-10-06', 'createdAt[from]'],
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['offset=-1', 'offset'],
      ['orderIds=0', 'orderIds'],
      ['statusIds[]=abc', 'statusIds'],
      ['orderIds=99999999999', 'orderIds'],
    ];
    for (const [q, field] of cases) {
      const res = await get(`/v2/lead/?${q}`).expect(400);
      expect({ q, field: res.body.data.errors[0].field }).toEqual({ q, field });
    }
  });
});
