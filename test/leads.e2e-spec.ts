import request from 'supertest';
import { nextCallableAt } from '../src/modules/leads/domain/call-planning';
import { linkProblems } from '../src/modules/leads/domain/lead-links';
import { createLead, createLeadOrder, leadBody, testPhone, TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

const V2_DETAIL_KEYS = [
  'id', 'name', 'phone', 'sourceComment', 'ip', 'externalIdCrmA', 'externalIdCrmB', 'externalIdCrmC', 'externalIdCrmD', 'statusId',
  'leadType', 'createMethod', 'source', 'isSecondary', 'planningCallDateTime', 'priority', 'utcOffset', 'timeZone', 'createdAt', 'updatedAt',
  'orderId', 'orderCode', 'socialAId', 'socialBLogin', 'messengerUserName', 'messengerPhone', 'adCampaignId', 'customValues',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

describe('leads (v2 and v1)', () => {
  let t: TestApp;
  let order: TestOrder;
  const post = (path: string, body: unknown, key?: string) => request(t.http).post(path).set('X-Api-Key', key ?? t.apiKey).send(body as object);
  const get = (path: string, key?: string) => request(t.http).get(path).set('X-Api-Key', key ?? t.apiKey);
  const leadCount = async (where = 'true', params: unknown[] = []) => (await t.ds.query(`SELECT count(*)::int AS n FROM lead WHERE ${where}`, params))[0].n as number;
  const detail = async (id: number) => (await get(`/v2/lead/detail/${id}/`).expect(200)).body.data;
  const listItem = async (id: number, orderId: number) => {
    const res = await get(`/v2/lead/?orderIds[]=${orderId}&limit=100`).expect(200);
    return res.body.data.list.find((l: { id: number }) => l.id === id);
  };

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    order = await createLeadOrder(t, { defaultUtcOffset: 5 });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('create (v2)', () => {
    it('creates a lead and returns its id; detail has the v2 shape with exact types', async () => {
      const res = await post('/v2/lead/create/', {
        leadType: 'selection',
        phone: '79161230001',
        orderId: order.id,
        orderCode: order.code,
        name: 'Анна Петрова',
        sourceComment: '{"rooms":2}',
        externalIdCrmA: 'A-1',
        externalIdCrmD: 'D-1',
        priority: 3,
        source: 'social-a.ads',
        adCampaignId: 'c'.repeat(64),
        messengerUserName: 'anna',
        messengerPhone: '+7 916 123-00-01',
        socialAId: '12345',
        socialBLogin: 'anna.b',
        createdAt: '2001-01-01T00:00:00Z',
        id: 999,
        unknownField: 'ignored',
      }).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: { id: expect.any(Number) } });
      const lead = await detail(res.body.data.id);
      expect(Object.keys(lead).sort()).toEqual([...V2_DETAIL_KEYS].sort());
      expect(lead).toEqual({
        id: res.body.data.id,
        name: 'Анна Петрова',
        phone: '+79161230001',
        sourceComment: '{"rooms":2}',
        ip: '',
        externalIdCrmA: 'A-1',
        externalIdCrmB: '',
        externalIdCrmC: '',
        externalIdCrmD: 'D-1',
        statusId: 1,
        leadType: 'selection',
        createMethod: 'API',
        source: 'social-a.ads',
        isSecondary: false,
        planningCallDateTime: expect.stringMatching(ISO),
        priority: 3,
        utcOffset: 5, // Russia has several offsets: the order default
        timeZone: null, // Russia has several zones, the order has none: the fixed offset
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        orderId: order.id,
        orderCode: order.code,
        socialAId: '12345',
        socialBLogin: 'anna.b',
        messengerUserName: 'anna',
        messengerPhone: '+79161230001',
        adCampaignId: 'c'.repeat(64),
        customValues: {},
      });
      expect(lead.createdAt.startsWith('2001')).toBe(false);
      expect(res.body.data.id).not.toBe(999);
    });

    it('works without the trailing slash', async () => {
      const res = await post('/v2/lead/create', leadBody(order)).expect(200);
      await get(`/v2/lead/detail/${res.body.data.id}`).expect(200);
    });

    it('rejects invalid phones with 400 on phone, storing nothing', async () => {
      const before = await leadCount();
      for (const phone of ['89161234567', '+70001234567', '12345', 'not a phone', '+7916123456789012']) {
        const res = await post('/v2/lead/create/', leadBody(order, { phone })).expect(400);
        expect(res.body.success).toBe(false);
        expect(res.body.data.errors).toEqual([{ field: 'phone', message: expect.any(String) }]);
      }
      await post('/v2/lead/create/', leadBody(order, { phone: 79161234567 })).expect(400);
      expect(await leadCount()).toBe(before);
    });

    it('rejects an orderId/orderCode mismatch and an unknown order with 400, storing nothing', async () => {
      const other = await createLeadOrder(t);
      const before = await leadCount();
      const mismatch = await post('/v2/lead/create/', leadBody(order, { orderCode: other.code })).expect(400);
      expect(mismatch.body.data.errors).toEqual([{ field: 'orderCode', message: expect.stringContaining('different order') }]);
      const unknown = await post('/v2/lead/create/', leadBody(order, { orderId: 999999 })).expect(400);
      expect(unknown.body.data.errors).toEqual([{ field: 'orderId', message: expect.stringContaining('does not exist') }]);
      expect(await leadCount()).toBe(before);
    });

    it('accepts only in-progress statuses on create and defaults to the catalogue default', async () => {
      const before = await leadCount();
      const qualified = await post('/v2/lead/create/', leadBody(order, { statusId: 10 })).expect(400);
      expect(qualified.body.data.errors[0]).toEqual({ field: 'statusId', message: expect.stringContaining('in-progress') });
      await post('/v2/lead/create/', leadBody(order, { statusId: 424242 })).expect(400);
      await post('/v2/lead/create/', leadBody(order, { statusId: '2' })).expect(400);
      expect(await leadCount()).toBe(before);
      const id = (await post('/v2/lead/create/', leadBody(order, { statusId: 3 })).expect(200)).body.data.id;
      expect((await detail(id)).statusId).toBe(3);
    });

    it('validates field shapes: adCampaignId length, leadType, source, utcOffset, socialAId, required fields', async () => {
      const before = await leadCount();
      const cases: [Record<string, unknown>, string][] = [
        [{ adCampaignId: 'x'.repeat(65) }, 'adCampaignId'],
        [{ leadType: 'other' }, 'leadType'],
        [{ source: 'tv' }, 'source'],
        [{ utcOffset: 15 }, 'utcOffset'],
        [{ utcOffset: '3' }, 'utcOffset'],
        [{ socialAId: '0' }, 'socialAId'],
        [{ socialAId: 'abc' }, 'socialAId'],
        [{ orderId: 0 }, 'orderId'],
        [{ orderId: '1' }, 'orderId'],
        [{ priority: 1.5 }, 'priority'],
        [{ customValues: 'x' }, 'customValues'],
        [{ name: null }, 'name'],
      ];
      for (const [extra, field] of cases) {
        const res = await post('/v2/lead/create/', leadBody(order, extra)).expect(400);
        expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      for (const missing of ['leadType', 'phone', 'orderId', 'orderCode']) {
        const body: Record<string, unknown> = leadBody(order);
        delete body[missing];
        const res = await post('/v2/lead/create/', body).expect(400);
        expect(res.body.data.errors[0].field).toBe(missing);
      }
      expect(await leadCount()).toBe(before);
    });

    it('validates customValues with the shared validator and stores them normalised', async () => {
      const field = await post('/v2/custom-field/create/', { title: 'Бюджет (тест)', type: 'int', essence: 'leads' }).expect(200);
      const orderField = await post('/v2/custom-field/create/', { title: 'Ниша (тест)', type: 'string', essence: 'orders' }).expect(200);
      const fid = field.body.data.id;
      const bad = await post('/v2/lead/create/', leadBody(order, { customValues: { [fid]: 'lots', [orderField.body.data.id]: 'x', 999999: 1 } })).expect(400);
      expect(bad.body.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(
        [`customValues.${fid}`, `customValues.${orderField.body.data.id}`, 'customValues.999999'].sort(),
      );
      const id = (await post('/v2/lead/create/', leadBody(order, { customValues: { [fid]: '1500000' } })).expect(200)).body.data.id;
      expect((await detail(id)).customValues).toEqual({ [fid]: 1500000 });
      // An update without customValues keeps them; one with customValues replaces the map (as for orders).
      await post(`/v2/lead/update/${id}/`, { name: 'x' }).expect(200);
      expect((await detail(id)).customValues).toEqual({ [fid]: 1500000 });
      await post(`/v2/lead/update/${id}/`, { customValues: { [fid]: 7 } }).expect(200);
      expect((await detail(id)).customValues).toEqual({ [fid]: 7 });
      await post(`/v2/lead/update/${id}/`, { customValues: { [fid]: 'x' } }).expect(400);
      await post(`/v2/lead/update/${id}/`, { customValues: {} }).expect(200);
      expect((await detail(id)).customValues).toEqual({});
    });

    it('derives utcOffset from a single-offset phone country, else the order default; an explicit one wins', async () => {
      const by = await createLead(t, order, { phone: '+375291234567' });
      expect((await detail(by)).utcOffset).toBe(3);
      const ru = await createLead(t, order, { phone: testPhone() });
      expect((await detail(ru)).utcOffset).toBe(5);
      const explicit = await createLead(t, order, { phone: '+375291234568', utcOffset: -4 });
      expect((await detail(explicit)).utcOffset).toBe(-4);
    });

    it('plans the first call inside the schedule in the lead local time, skipping holidays', async () => {
      const schedule = [['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], [], []];
      const today = new Date().toISOString().slice(0, 10);
      const scheduled = await createLeadOrder(t, { schedule, holidays: [today], defaultUtcOffset: 3 });
      const before = new Date();
      const id = await createLead(t, scheduled, { utcOffset: 10 });
      const after = new Date();
      const lead = await detail(id);
      const planned = new Date(lead.planningCallDateTime);
      const expectedLo = nextCallableAt({ now: before, schedule: schedule as never, holidays: [today], utcOffsetHours: 10 })!;
      const expectedHi = nextCallableAt({ now: after, schedule: schedule as never, holidays: [today], utcOffsetHours: 10 })!;
      expect(planned.getTime()).toBeGreaterThanOrEqual(expectedLo.getTime() - 1000);
      expect(planned.getTime()).toBeLessThanOrEqual(expectedHi.getTime() + 1000);
      const local = new Date(planned.getTime() + 10 * 3_600_000);
      expect(local.getUTCHours()).toBeGreaterThanOrEqual(9);
      expect(local.getUTCHours()).toBeLessThan(18);
      expect([0, 6]).not.toContain(local.getUTCDay());

      // ignoreLeadTimezone: planned in the order's offset instead
      const ignoring = await createLeadOrder(t, { schedule, ignoreLeadTimezone: true, defaultUtcOffset: 3 });
      const id2 = await createLead(t, ignoring, { utcOffset: 10 });
      const planned2 = new Date((await detail(id2)).planningCallDateTime);
      const local2 = new Date(planned2.getTime() + 3 * 3_600_000);
      expect(local2.getUTCHours()).toBeGreaterThanOrEqual(9);
      expect(local2.getUTCHours()).toBeLessThan(18);
      expect((await detail(id2)).utcOffset).toBe(10);
    });
  });

  describe('secondary leads', () => {
    it('links a lead with the same phone in the same order both ways; other orders are separate', async () => {
      const o = await createLeadOrder(t);
      const phone = testPhone();
      const first = await createLead(t, o, { phone });
      const second = await createLead(t, o, { phone: phone.slice(1) });
      const elsewhere = await createLead(t, await createLeadOrder(t), { phone });
      expect((await detail(first)).isSecondary).toBe(false);
      expect((await detail(second)).isSecondary).toBe(true);
      expect(await detail(second)).not.toHaveProperty('previousLeadId');
      const a = await listItem(first, o.id);
      const b = await listItem(second, o.id);
      expect([a.previousLeadId, a.nextLeadId, b.previousLeadId, b.nextLeadId]).toEqual([null, second, first, null]);
      expect((await detail(elsewhere)).isSecondary).toBe(false);
      const v1 = (await get(`/v1/lead/detail/${second}/`).expect(200)).body.data;
      expect([v1.UF_IS_SECONDARY, v1.UF_PREVIOUS_LEAD, v1.UF_NEXT_LEAD]).toEqual([true, first, null]);
    });

    it('does not link past the duplicate window', async () => {
      const o = await createLeadOrder(t);
      const phone = testPhone();
      const old = await createLead(t, o, { phone });
      await t.ds.query(`UPDATE lead SET created_at = now() - make_interval(days => $2) WHERE id = $1`, [old, t.config.leadDuplicateWindowDays + 1]);
      const fresh = await createLead(t, o, { phone });
      expect((await detail(fresh)).isSecondary).toBe(false);
      expect((await listItem(old, o.id)).nextLeadId).toBeNull();
    });

    it('links concurrent creates of one phone into a single chain, no lost link, no cycle', async () => {
      const o = await createLeadOrder(t);
      const phone = testPhone();
      const results = await Promise.all(Array.from({ length: 20 }, () => post('/v2/lead/create/', leadBody(o, { phone }))));
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
      const rows: { id: number; previousLeadId: number | null; nextLeadId: number | null; isSecondary: boolean }[] = await t.ds.query(
        `SELECT id, previous_lead_id AS "previousLeadId", next_lead_id AS "nextLeadId", is_secondary AS "isSecondary" FROM lead WHERE order_id = $1`,
        [o.id],
      );
      expect(rows).toHaveLength(20);
      expect(linkProblems(rows)).toEqual([]);
      const heads = rows.filter((r) => r.previousLeadId === null);
      expect(heads).toHaveLength(1);
      expect(rows.filter((r) => r.isSecondary)).toHaveLength(19);
      // Walking from the head visits every lead once.
      const byId = new Map(rows.map((r) => [r.id, r]));
      const seen: number[] = [];
      for (let cur: (typeof rows)[number] | undefined = heads[0]; cur; cur = cur.nextLeadId ? byId.get(cur.nextLeadId) : undefined) seen.push(cur.id);
      expect(seen.sort()).toEqual(rows.map((r) => r.id).sort());
    });
  });

  describe('duplicate chains when a phone changes', () => {
    const chain = async (orderId: number) =>
      (await t.ds.query(
        `SELECT id, previous_lead_id AS "previousLeadId", next_lead_id AS "nextLeadId", is_secondary AS "isSecondary" FROM lead WHERE order_id = $1 ORDER BY id`,
        [orderId],
      )) as { id: number; previousLeadId: number | null; nextLeadId: number | null; isSecondary: boolean }[];

    it('takes the lead out of its old chain (neighbours joined) so a later lead of its new phone links without stealing a link', async () => {
      const o = await createLeadOrder(t);
      const [p1, p2] = [testPhone(), testPhone()];
      const x = await createLead(t, o, { phone: p1 });
      const y = await createLead(t, o, { phone: p1 });
      const z = await createLead(t, o, { phone: p1 });
      await post(`/v2/lead/update/${y}/`, { phone: p2 }).expect(200);
      const w = await createLead(t, o, { phone: p2 });
      const rows = await chain(o.id);
      expect(linkProblems(rows)).toEqual([]);
      expect(rows).toEqual([
        { id: x, previousLeadId: null, nextLeadId: z, isSecondary: false },
        { id: y, previousLeadId: null, nextLeadId: w, isSecondary: false },
        { id: z, previousLeadId: x, nextLeadId: null, isSecondary: true },
        { id: w, previousLeadId: y, nextLeadId: null, isSecondary: true },
      ]);
    });

    it('makes the next lead a head when the head leaves; a same-phone update changes no link', async () => {
      const o = await createLeadOrder(t);
      const [p1, p2] = [testPhone(), testPhone()];
      const a = await createLead(t, o, { phone: p1 });
      const b = await createLead(t, o, { phone: p1 });
      await post(`/v2/lead/update/${b}/`, { phone: p1, name: 'same phone' }).expect(200);
      expect((await chain(o.id)).map((r) => r.nextLeadId)).toEqual([b, null]);
      await post(`/v2/lead/update/${a}/`, { phone: p2 }).expect(200);
      expect(await chain(o.id)).toEqual([
        { id: a, previousLeadId: null, nextLeadId: null, isSecondary: false },
        { id: b, previousLeadId: null, nextLeadId: null, isSecondary: false },
      ]);
    });

    it('keeps chains sound under concurrent phone changes and creates', async () => {
      const o = await createLeadOrder(t);
      const [p1, p2] = [testPhone(), testPhone()];
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) ids.push(await createLead(t, o, { phone: i % 2 ? p1 : p2 }));
      const results = await Promise.all([
        ...ids.slice(0, 3).map((id, i) => post(`/v2/lead/update/${id}/`, { phone: i % 2 ? p2 : p1 })),
        ...Array.from({ length: 6 }, (_, i) => post('/v2/lead/create/', leadBody(o, { phone: i % 2 ? p1 : p2 }))),
      ]);
      expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
      expect(linkProblems(await chain(o.id))).toEqual([]);
      // Each phone's leads form chains whose links agree both ways; no lead is claimed twice.
      const rows = await chain(o.id);
      const claimed = rows.map((r) => r.previousLeadId).filter((p) => p !== null);
      expect(new Set(claimed).size).toBe(claimed.length);
    });
  });

  describe('update (v2)', () => {
    it('changes only the fields sent', async () => {
      const id = await createLead(t, order, { name: 'Before', externalIdCrmB: 'B-0', adCampaignId: 'cmp' });
      const before = await detail(id);
      await post(`/v2/lead/update/${id}/`, { name: 'After', priority: 9, sourceComment: { a: 1 }, adCampaignId: null, createdAt: '2000-01-01T00:00:00Z' }).expect(200)
        .expect((r) => expect(r.body).toEqual({ success: true, message: '', data: [] }));
      const after = await detail(id);
      expect(after).toEqual({
        ...before,
        name: 'After',
        priority: 9,
        sourceComment: '{"a":1}',
        adCampaignId: null,
        updatedAt: expect.stringMatching(ISO),
      });
    });

    it('re-normalises a changed phone and re-derives its offset; invalid input changes nothing', async () => {
      const id = await createLead(t, order);
      await post(`/v2/lead/update/${id}`, { phone: '375 29 765-43-21' }).expect(200);
      const lead = await detail(id);
      expect([lead.phone, lead.utcOffset]).toEqual(['+375297654321', 3]);
      const bad = await post(`/v2/lead/update/${id}/`, { phone: '123', name: 'X' }).expect(400);
      expect(bad.body.data.errors[0].field).toBe('phone');
      expect((await detail(id)).name).toBe(lead.name);
      await post(`/v2/lead/update/${id}/`, { statusId: 999999 }).expect(400);
      await post(`/v2/lead/update/${id}/`, { adCampaignId: 'x'.repeat(65) }).expect(400);
      expect(await detail(id)).toEqual(lead);
    });

    it('keeps the next call inside the schedule when the offset changes', async () => {
      const schedule = [['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], [], []];
      const o = await createLeadOrder(t, { schedule });
      const id = await createLead(t, o, { utcOffset: -5 });
      await post(`/v2/lead/update/${id}/`, { utcOffset: 10 }).expect(200);
      const lead = await detail(id);
      expect(lead.utcOffset).toBe(10);
      const local = new Date(Date.parse(lead.planningCallDateTime) + 10 * 3_600_000);
      expect(local.getUTCHours()).toBeGreaterThanOrEqual(9);
      expect(local.getUTCHours()).toBeLessThan(18);
      expect([0, 6]).not.toContain(local.getUTCDay());
      expect(Date.parse(lead.planningCallDateTime)).toBeGreaterThanOrEqual(Date.now() - 60_000);
    });

    it('plans no call in an order whose seven days are all off ([] is a day off, never "any time")', async () => {
      const o = await createLeadOrder(t, { schedule: [[], [], [], [], [], [], []] });
      const id = await createLead(t, o);
      expect((await detail(id)).planningCallDateTime).toBe('');
      expect((await get(`/v1/lead/detail/${id}/`).expect(200)).body.data.UF_CALL_DATE_TIME).toBe(0);
    });

    it('answers 404 for an unknown lead and 400 for bad ids', async () => {
      await post('/v2/lead/update/99999999/', { name: 'x' }).expect(404);
      await get('/v2/lead/detail/99999999/').expect(404);
      for (const bad of ['0', '-1', 'abc', '99999999999999999999']) {
        await post(`/v2/lead/update/${bad}/`, { name: 'x' }).expect(400);
        await get(`/v2/lead/detail/${bad}/`).expect(400);
        await get(`/v1/lead/detail/${bad}/`).expect(400);
      }
    });

    it('enforces qualifiedLeadsPerDayLimit with 409 and frees a slot when a lead leaves qualified', async () => {
      const limited = await createLeadOrder(t, { qualifiedLimit: 2 });
      const [a, b, c] = [await createLead(t, limited), await createLead(t, limited), await createLead(t, limited)];
      await post(`/v2/lead/update/${a}/`, { statusId: 10 }).expect(200);
      await post(`/v2/lead/update/${b}/`, { statusId: 11 }).expect(200);
      const res = await post(`/v2/lead/update/${c}/`, { statusId: 10, name: 'not stored' }).expect(409);
      expect(res.body).toEqual({ success: false, message: expect.stringContaining('qualifiedLeadsPerDayLimit'), data: [] });
      expect((await detail(c)).statusId).toBe(1);
      expect((await detail(c)).name).toBe('');
      // moving between qualified statuses is not a new qualification
      await post(`/v2/lead/update/${a}/`, { statusId: 11 }).expect(200);
      // leaving qualified frees the slot
      await post(`/v2/lead/update/${b}/`, { statusId: 20 }).expect(200);
      await post(`/v2/lead/update/${c}/`, { statusId: 10 }).expect(200);
      const q: { id: number; q: boolean }[] = await t.ds.query(`SELECT id, qualified_at IS NOT NULL AS q FROM lead WHERE order_id = $1 ORDER BY id`, [limited.id]);
      expect(q.map((r) => r.q)).toEqual([true, false, true]);
    });

    it('enforces the limit under concurrent qualifications', async () => {
      const limited = await createLeadOrder(t, { qualifiedLimit: 3 });
      const ids = [];
      for (let i = 0; i < 8; i++) ids.push(await createLead(t, limited));
      const results = await Promise.all(ids.map((id) => post(`/v2/lead/update/${id}/`, { statusId: 10 })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(3);
      expect(results.filter((r) => r.status === 409)).toHaveLength(5);
      expect(await leadCount('order_id = $1 AND status_id = 10', [limited.id])).toBe(3);
    });
  });

  describe('v1', () => {
    it('creates, updates and reads the same lead as v2: the two views agree', async () => {
      const created = await post('/v1/lead/create/', {
        lead_type: 'straight',
        client_phone: '375291112233',
        order_id: order.id,
        order_code: order.code,
        messengerId: 5550001,
        socialAId: 777,
        socialBLogin: 'ivan.b',
        client_name: 'Иван',
        quiz_log: 'answers',
        campaign_id: 'cmp-1',
        external_id: 'EXT-1',
        priority: 2,
        utc_offset: 4,
      }).expect(200);
      const id = created.body.data.id;
      expect(created.body).toEqual({ success: true, message: '', data: { id: expect.any(Number) } });
      const v1 = (await get(`/v1/lead/detail/${id}/`).expect(200)).body.data;
      const v2 = await detail(id);
      expect(v1).toEqual({
        ID: id,
        UF_NAME: 'Иван',
        UF_PHONE: '+375291112233',
        UF_QUIZ_LOG: 'answers',
        UF_USER_IP: '',
        UF_CAMPAIGN_ID: 'cmp-1',
        UF_ADDITIONAL_PARAMS: '',
        UF_EXTERNAL_ID: 'EXT-1',
        UF_STATUS: '1',
        UF_LEAD_TYPE: 'straight',
        UF_CREATE_METHOD: 'API',
        UF_CITY: null,
        UF_FAIL_ORDERS: null,
        UF_OBJECTS: null,
        UF_IS_SECONDARY: false,
        UF_PREVIOUS_LEAD: null,
        UF_NEXT_LEAD: null,
        UF_CALL_DATE_TIME: Math.floor(Date.parse(v2.planningCallDateTime) / 1000),
        UF_CALL_PRIORITY: 2,
        UF_CLIENT_UTC_OFFSET: 4,
        UF_PREPARE_IS_FINISHED: 1,
        UF_DATE_CREATE: v2.createdAt,
        UF_DATE_UPDATE: v2.updatedAt,
        UF_ORDER: order.id,
        UF_SELECTION_TYPE: '',
        socialAId: '777',
        socialBLogin: 'ivan.b',
        messengerUserName: '',
        messengerPhone: '',
      });
      expect(v2).toMatchObject({ name: 'Иван', phone: '+375291112233', sourceComment: 'answers', adCampaignId: 'cmp-1', externalIdCrmA: 'EXT-1', priority: 2, utcOffset: 4, socialAId: '777' });

      const callAt = 1893456000; // 2030-01-01T00:00:00Z
      await post(`/v1/lead/update/${id}`, { client_name: 'Иван Иванов', status: 2, call_timestamp: callAt, messengerUserName: 'ivan', messengerPhone: '+375291112233', socialAId: '778', external_id: 'EXT-2' }).expect(200);
      const v1b = (await get(`/v1/lead/detail/${id}`).expect(200)).body.data;
      const v2b = await detail(id);
      expect([v1b.UF_NAME, v1b.UF_STATUS, v1b.UF_CALL_DATE_TIME, v1b.messengerUserName, v1b.socialAId, v1b.UF_EXTERNAL_ID]).toEqual(['Иван Иванов', '2', callAt, 'ivan', '778', 'EXT-2']);
      expect([v2b.name, v2b.statusId, v2b.planningCallDateTime, v2b.messengerUserName, v2b.socialAId]).toEqual(['Иван Иванов', 2, '2030-01-01T00:00:00+00:00', 'ivan', '778']);
    });

    it('requires lead_type, client_phone, order_id, order_code and names v1 fields in errors', async () => {
      const before = await leadCount();
      const res = await post('/v1/lead/create/', { client_phone: '79161234567' }).expect(400);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['lead_type', 'order_id', 'order_code']));
      const phone = await post('/v1/lead/create/', { lead_type: 'straight', client_phone: '8916', order_id: order.id, order_code: order.code }).expect(400);
      expect(phone.body.data.errors).toEqual([{ field: 'client_phone', message: expect.any(String) }]);
      const mismatch = await post('/v1/lead/create/', { lead_type: 'straight', client_phone: testPhone(), order_id: order.id, order_code: 'nope' }).expect(400);
      expect(mismatch.body.data.errors[0].field).toBe('order_code');
      await post('/v1/lead/create/', { lead_type: 'straight', client_phone: testPhone(), order_id: order.id, order_code: order.code, messengerId: 0 }).expect(400);
      await post('/v1/lead/create/', { lead_type: 'straight', client_phone: testPhone(), order_id: order.id, order_code: order.code, socialAId: -1 }).expect(400);
      await post('/v1/lead/create/', { lead_type: 'straight', client_phone: testPhone(), order_id: order.id, order_code: order.code, campaign_id: 'x'.repeat(65) }).expect(400);
      expect(await leadCount()).toBe(before);
      const id = (await post('/v1/lead/update/99999999/', { client_name: 'x' }).expect(404)).body;
      expect(id.success).toBe(false);
      const lead = await createLead(t, order);
      const badStatus = await post(`/v1/lead/update/${lead}/`, { status: 999999 }).expect(400);
      expect(badStatus.body.data.errors[0].field).toBe('status');
      await post(`/v1/lead/update/${lead}/`, { call_timestamp: -1 }).expect(400);
      await get('/v1/lead/detail/99999999/').expect(404);
    });
  });

  describe('idempotency', () => {
    it('replays a v2 create for the same key and body, 409 for another body, one lead under concurrent retries', async () => {
      const body = leadBody(order);
      const first = await post('/v2/lead/create/', body).set('Idempotency-Key', 'lead-k1').expect(200);
      const replay = await post('/v2/lead/create/', body).set('Idempotency-Key', 'lead-k1').expect(200);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(await leadCount('phone = $1', [body.phone])).toBe(1);
      const other = { ...body, name: 'someone else' };
      const conflict = await post('/v2/lead/create/', other).set('Idempotency-Key', 'lead-k1').expect(409);
      expect(conflict.body.data).toEqual([]);
      expect(await leadCount('phone = $1', [body.phone])).toBe(1);

      const body2 = leadBody(order);
      const all = await Promise.all(Array.from({ length: 6 }, () => post('/v2/lead/create/', body2).set('Idempotency-Key', 'lead-k2')));
      expect(all.map((r) => r.status)).toEqual(Array(6).fill(200));
      expect(new Set(all.map((r) => r.body.data.id)).size).toBe(1);
      expect(await leadCount('phone = $1', [body2.phone])).toBe(1);
    });

    it('replays a v1 create', async () => {
      const body = { lead_type: 'straight', client_phone: testPhone(), order_id: order.id, order_code: order.code };
      const a = await post('/v1/lead/create/', body).set('Idempotency-Key', 'lead-v1-k').expect(200);
      const b = await post('/v1/lead/create/', body).set('Idempotency-Key', 'lead-v1-k').expect(200);
      expect(b.body.data.id).toBe(a.body.data.id);
      await post('/v1/lead/create/', { ...body, client_name: 'x' }).set('Idempotency-Key', 'lead-v1-k').expect(409);
      expect(await leadCount('phone = $1', [body.client_phone])).toBe(1);
    });
  });

  describe('status catalogues', () => {
    it('lists lead and call statuses with an api key', async () => {
      const key = await t.keyWith('api');
      const leads = (await get('/v2/lead-status/', key).expect(200)).body.data;
      expect(leads).toEqual(expect.arrayContaining([
        { id: 1, code: 'new', title: 'New', category: 'in-progress', isDefault: true },
        { id: 10, code: 'qualified', title: 'Qualified', category: 'qualified', isDefault: false },
        { id: 20, code: 'rejected', title: 'Rejected', category: 'rejected', isDefault: false },
        { id: 30, code: 'closed', title: 'Closed', category: 'closed', isDefault: false },
      ]));
      expect(leads.filter((s: { isDefault: boolean }) => s.isDefault)).toHaveLength(1);
      const calls = (await get('/v2/call-status', key).expect(200)).body.data;
      expect(calls).toEqual(expect.arrayContaining([{ id: 1, code: 'answered', title: 'Answered', category: 'answered', isCallback: false }]));
      await get('/v2/lead-status/', await t.keyWith('telephony')).expect(403);
    });
  });
});
