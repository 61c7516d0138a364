import { createLead, createLeadOrder, TestOrder } from './factories/leads';
import { ISO_UTC as ISO, leadRequests } from './support/api-requests';
import { createTestApp, TestApp } from './support/test-app';

/** POST /v2/lead/update/{id}/: partial changes, re-derived offset and next call, the qualified-per-day limit; the status catalogues. */

describe('leads: update', () => {
  let t: TestApp;
  let order: TestOrder;
  const { post, get, leadCount, detail } = leadRequests(() => t);

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    order = await createLeadOrder(t, { defaultUtcOffset: 5 });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('update (v2)', () => {
    it('changes only the fields sent', async () => {
      const id = await createLead(t, order, { name: 'Before', externalIdCrmB: 'B-0', adCampaignId: 'cmp' });
      const before = await detail(id);
      await post(`/v2/lead/update/${id}/`, { name: 'After', priority: 9, sourceComment: { a: 1 }, adCampaignId: null, createdAt: '2000-01-01T00:00:00Z' })
        .expect(200)
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
      const q: { id: number; q: boolean }[] = await t.ds.query(`SELECT id, qualified_at IS NOT NULL AS q FROM lead WHERE order_id = $1 ORDER BY id`, [
        limited.id,
      ]);
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

  describe('status catalogues', () => {
    it('lists lead and call statuses with an api key', async () => {
      const key = await t.keyWith('api');
      const leads = (await get('/v2/lead-status/', key).expect(200)).body.data;
      expect(leads).toEqual(
        expect.arrayContaining([
          { id: 1, code: 'new', title: 'New', category: 'in-progress', isDefault: true },
          { id: 10, code: 'qualified', title: 'Qualified', category: 'qualified', isDefault: false },
          { id: 20, code: 'rejected', title: 'Rejected', category: 'rejected', isDefault: false },
          { id: 30, code: 'closed', title: 'Closed', category: 'closed', isDefault: false },
        ]),
      );
      expect(leads.filter((s: { isDefault: boolean }) => s.isDefault)).toHaveLength(1);
      const calls = (await get('/v2/call-status', key).expect(200)).body.data;
      expect(calls).toEqual(
        expect.arrayContaining([
          {
            id: 1,
            code: 'answered',
            title: 'Answered',
            category: 'answered',
            isCallback: false,
            isOptOut: false,
            redial: { afterMinutes: null, maxAttempts: null, final: false },
          },
        ]),
      );
      await get('/v2/lead-status/', await t.keyWith('telephony')).expect(403);
    });
  });
});
