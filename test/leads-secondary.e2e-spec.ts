import { linkProblems } from '../src/modules/leads/domain/lead-links';
import { createLead, createLeadOrder, leadBody, testPhone } from './factories/leads';
import { leadRequests } from './support/api-requests';
import { createTestApp, TestApp } from './support/test-app';

/** Secondary leads: the duplicate chain of one phone in one order, on create and when a phone changes. */

describe('leads: secondary leads', () => {
  let t: TestApp;
  const { post, get, detail, listItem } = leadRequests(() => t);

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
  });
  afterAll(async () => {
    await t.close();
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
      await t.ds.query<{ id: number; previousLeadId: number | null; nextLeadId: number | null; isSecondary: boolean }[]>(
        `SELECT id, previous_lead_id AS "previousLeadId", next_lead_id AS "nextLeadId", is_secondary AS "isSecondary" FROM lead WHERE order_id = $1 ORDER BY id`,
        [orderId],
      );

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
});
