import request from 'supertest';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { pendingDemoSteps } from './support/demo-steps';
import { type FeedEvent, followFeed } from './support/event-feed';
import { createTestApp, TestApp } from './support/test-app';

interface Entry {
  phone: string;
  scope: string;
  orderId: number | null;
  clientId: number | null;
  source: string;
  callId: number | null;
  expiresAt: string | null;
}

/** The demo's do-not-call lists, opt-out call and consent order, as the README and docs/domain.md show them. */
describe('demo dataset: do-not-call lists, an opt-out call, consent', () => {
  let t: TestApp;
  const get = async (path: string) => (await request(t.http).get(path).set('X-Api-Key', t.apiKey).expect(200)).body.data;
  const callable = (id: number) => get(`/v2/lead/callable/${id}/`) as Promise<{ callableNow: boolean; reasons: string[]; nextCallableAt: string | null }>;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.get(DemoSeeder).run();
  });
  afterAll(async () => {
    await t.close();
  });

  it("lists numbers on the global list, the dental clinic's (client 1) and an order's (order 1)", async () => {
    const all = (await get('/v2/dnc/?limit=100')) as { total: number; list: Entry[] };
    expect(all.total).toBe(all.list.length);
    const phones = (scope: string, owner?: Partial<Entry>) =>
      all.list.filter((e) => e.scope === scope && e.source === 'api' && Object.entries(owner ?? {}).every(([k, v]) => e[k as keyof Entry] === v)).length;
    expect(phones('global')).toBe(3);
    expect(phones('client', { clientId: 1 })).toBe(3);
    expect(phones('order', { orderId: 1 })).toBe(2);
    expect(all.list.filter((e) => e.expiresAt !== null)).toHaveLength(1);
    expect((await get('/v2/dnc/?scope=client&clientId=1')).total).toBe(3);
  });

  it("README: lead 8 (the clinic's order 3) is blocked by the clinic's list: callable answers dnc, no call planned", async () => {
    const lead = await get('/v2/lead/detail/8/');
    expect({ orderId: lead.orderId, planned: lead.planningCallDateTime }).toEqual({ orderId: 3, planned: '' });
    const entries = (await get(`/v2/dnc/?phone=${encodeURIComponent(lead.phone)}`)).list as Entry[];
    expect(entries.map((e) => [e.scope, e.clientId])).toEqual([['client', 1]]);
    expect(lead.dialingHold).toEqual({ reasons: ['dnc'], since: expect.any(String) });
    const c = await callable(8);
    expect({ callableNow: c.callableNow, dnc: c.reasons.includes('dnc'), next: c.nextCallableAt }).toEqual({ callableNow: false, dnc: true, next: null });
    // A planned lead of another order the lists do not cover has no dnc reason.
    expect((await callable(1)).reasons).not.toContain('dnc');
  });

  it("records an opt-out on a call of lead 12 (online school): its number on client 2's list, source call; its leads stop", async () => {
    const [entry] = (await get('/v2/dnc/?scope=client&clientId=2')).list as Entry[];
    expect(entry).toMatchObject({ source: 'call', callId: expect.any(Number), expiresAt: null });
    const call = await get(`/v2/call/detail/${entry.callId}/`);
    expect(call.leadId).toBe(12);
    const same = (await get(`/v2/lead/?phone=${encodeURIComponent(entry.phone)}`)).list as { id: number; orderId: number; planningCallDateTime: string }[];
    expect(same.map((l) => l.id)).toContain(12);
    for (const l of same.filter((x) => x.orderId === 2)) {
      expect(l.planningCallDateTime).toBe('');
      expect((await callable(l.id)).reasons).toContain('dnc');
    }
    // The feed says so: the call's call.created carries optOut.
    const ofCall = (e: FeedEvent) => e.type === 'call.created' && e.data.call?.id === entry.callId;
    const { events } = await followFeed(t, 0, (es) => es.some(ofCall), { query: { types: ['call.created'] }, timeoutMs: 30_000 });
    expect(events.find(ofCall)?.data).toEqual({ call, optOut: true });
    const added = await followFeed(t, 0, (es) => es.some((e) => e.data.callId === entry.callId), { query: { types: ['dnc.added'] }, timeoutMs: 30_000 });
    expect(added.events.find((e) => e.data.callId === entry.callId)?.data).toEqual({
      scope: 'client',
      orderId: null,
      clientId: 2,
      phones: [entry.phone],
      expiresAt: null,
      reason: null,
      source: 'call',
      callId: entry.callId,
    });
  });

  it('has order 6 requiring consent: its lead with consent is planned, the one without is not (no_consent)', async () => {
    const order = await get('/v2/order/detail/6/');
    expect(order).toMatchObject({ code: 'polis-renewal-consent', consentRequired: true });
    const leads = (await get('/v2/lead/?orderIds=6')).list as { id: number; consent: object | null; planningCallDateTime: string }[];
    expect(leads.map((l) => l.id)).toEqual([321, 322]);
    expect(leads[0].consent).toMatchObject({ source: 'web_form', evidenceUrl: expect.stringMatching(/^https:/) });
    expect(leads[0].planningCallDateTime).not.toBe('');
    expect((await callable(321)).reasons).not.toContain('no_consent');
    expect({ consent: leads[1].consent, planned: leads[1].planningCallDateTime }).toEqual({ consent: null, planned: '' });
    expect((await callable(322)).reasons).toContain('no_consent');
    expect((await get('/v2/lead/detail/322/')).dialingHold).toEqual({ reasons: ['no_consent'], since: expect.any(String) });
  });

  it('runs its steps once per database', async () => {
    expect(await pendingDemoSteps(t)).toEqual([]);
    expect(await t.app.get(DemoSeeder).run()).toEqual([]);
    expect((await get('/v2/dnc/')).total).toBe(9);
  });
});
