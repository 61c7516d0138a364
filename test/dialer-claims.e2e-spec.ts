import request from 'supertest';
import { callStatusId } from './factories/calls';
import { type ClaimedLead, createDialingOrder, createLeads } from './factories/dialer';
import { createLead, leadBody, type TestOrder } from './factories/leads';
import { createSipEndpoint } from './factories/reference';
import { createTestApp, TestApp } from './support/test-app';

/** POST /v2/dialer/claim/, release, confirm, the claims list, and a call ending its lead's claim, through HTTP on a real database. */
describe('dialer claims', () => {
  let t: TestApp;
  let telephony: string;
  const post = (path: string, body: object, key = t.apiKey) => request(t.http).post(path).set('X-Api-Key', key).send(body);
  const get = (path: string, key = t.apiKey) => request(t.http).get(path).set('X-Api-Key', key);
  const claim = async (orderIds: number[], limit = 50, extra: object = {}): Promise<ClaimedLead[]> =>
    (await post('/v2/dialer/claim/', { dialerId: 'dialer-a', limit, orderIds, ...extra }, telephony).expect(200)).body.data.list;
  const confirm = async (claimTokens: string[]) => (await post('/v2/dialer/confirm/', { claimTokens }, telephony).expect(200)).body.data.list;
  const release = async (claimTokens: string[], retryAfterSeconds?: number) =>
    (await post('/v2/dialer/release/', { claimTokens, retryAfterSeconds }, telephony).expect(200)).body.data.count as number;
  const callBody = async (lead: { leadId: number; orderId: number }, claimToken?: string) => ({
    leadId: lead.leadId,
    orderId: lead.orderId,
    platformCallId: `dialer-${lead.leadId}-${Math.random()}`,
    sipEndpointId: await createSipEndpoint(t),
    statusId: await callStatusId(t, 'not-answered'),
    direction: 'outgoing',
    totalDurationSeconds: 20,
    waitTimeDurationSeconds: 20,
    talkTimeDurationSeconds: 0,
    claimToken,
  });
  const liveClaims = async (leadIds: number[]) =>
    (await t.ds.query(`SELECT count(*)::int AS n FROM dialer_claim WHERE lead_id = ANY($1) AND lease_expires_at > now()`, [leadIds]))[0].n as number;

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    telephony = await t.keyWith('telephony');
  });
  afterAll(async () => {
    await t.close();
  });

  it("keeps an order's dialWeight (1..100, default 1) and refuses others with 400", async () => {
    const order = await createDialingOrder(t, 7);
    expect((await get(`/v2/order/detail/${order.id}/`).expect(200)).body.data.dialWeight).toBe(7);
    for (const dialWeight of [0, 101, 2.5, '3', null]) {
      const res = await post(`/v2/order/update/${order.id}/`, { dialWeight }).expect(400);
      expect(res.body.data.errors[0].field).toBe('dialWeight');
    }
    expect((await get(`/v2/order/detail/${order.id}/`).expect(200)).body.data.dialWeight).toBe(7);
    const [{ w }] = await t.ds.query(
      `INSERT INTO call_order (code, service_title, title, status) VALUES ('w-default', 'w', 'w', 'success') RETURNING dial_weight AS w`,
    );
    expect(w).toBe(1);
  });

  it('hands out due leads by priority (higher first), then planned time, then id, each to one live claim only', async () => {
    const order = await createDialingOrder(t);
    const [low, high, mid, mid2] = await createLeads(t, order, 4, (i) => ({ priority: [0, 10, 5, 5][i] }));
    const list = await claim([order.id]);
    expect(list.map((l) => l.leadId)).toEqual([high, mid, mid2, low]);
    const first = list[0];
    expect(first).toMatchObject({ orderId: order.id, priority: 10, attempt: 1, name: '', customValues: {}, timeZone: null, utcOffset: expect.any(Number) });
    expect(first.claimToken).toMatch(/^[0-9a-f-]{36}$/);
    const lease = Date.parse(first.leaseExpiresAt) - Date.now();
    expect(lease).toBeGreaterThan(100_000);
    expect(lease).toBeLessThanOrEqual(121_000);
    expect(first.planningCallDateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(new Set(list.map((l) => l.claimToken)).size).toBe(4);
    // Held by live claims: a second claim gets none of them.
    expect(await claim([order.id])).toEqual([]);
  });

  it('hands out only leads the stored decision has due and unheld, in an order that dials, inside their window', async () => {
    const order = await createDialingOrder(t);
    const [due, listed, later] = await createLeads(t, order, 3);
    // The stored decision plans it later (as a redial would).
    await t.ds.query(`UPDATE lead SET planning_call_at = now() + interval '1 hour' WHERE id = $1`, [later]);
    const phone = (await get(`/v2/lead/detail/${listed}/`).expect(200)).body.data.phone;
    await post('/v2/dnc/add/', { phones: [phone] }).expect(200);
    const paused = await createDialingOrder(t);
    await createLeads(t, paused, 2);
    await post(`/v2/order/update/${paused.id}/`, { autoDialingEnabled: false }).expect(200);
    // A window of one hour twelve hours away: a lead planned before (due) is outside it now.
    const away = (new Date().getUTCHours() + 12) % 24;
    const hour = (h: number) => `${String(h).padStart(2, '0')}:00`;
    const closed = await createDialingOrder(t, 1, { schedule: Array.from({ length: 7 }, () => [hour(away), hour(away + 1)]), ignoreLeadTimezone: true });
    const [outside] = await createLeads(t, closed, 1);
    await t.ds.query(`UPDATE lead SET planning_call_at = now() - interval '1 minute' WHERE id = $1`, [outside]);
    const list = await claim([order.id, paused.id, closed.id]);
    expect(list.map((l) => l.leadId)).toEqual([due]);
    expect(list.map((l) => l.leadId)).not.toContain(later);
  });

  it('shares a claim across orders by dialWeight and keeps each order’s own order', async () => {
    const heavy = await createDialingOrder(t, 3);
    const light = await createDialingOrder(t, 1);
    const heavyLeads = await createLeads(t, heavy, 40);
    const lightLeads = await createLeads(t, light, 40);
    const list = await claim([heavy.id, light.id], 20);
    const of = (o: TestOrder) => list.filter((l) => l.orderId === o.id).map((l) => l.leadId);
    expect(of(heavy)).toEqual(heavyLeads.slice(0, 15));
    expect(of(light)).toEqual(lightLeads.slice(0, 5));
    // An order with fewer leads than its share leaves the rest to the others.
    const rest = await claim([heavy.id, light.id], 100);
    expect(rest.filter((l) => l.orderId === heavy.id)).toHaveLength(25);
    expect(rest.filter((l) => l.orderId === light.id)).toHaveLength(35);
  });

  it('release gives leads back at once, or with retryAfterSeconds not before then (through the decision)', async () => {
    const order = await createDialingOrder(t);
    const [a, b] = await createLeads(t, order, 2);
    const list = await claim([order.id]);
    const token = (id: number) => list.find((l) => l.leadId === id)!.claimToken;
    expect(await release([token(a), '00000000-0000-4000-8000-000000000000'])).toBe(1);
    expect(await release([token(a)])).toBe(0);
    expect((await claim([order.id])).map((l) => l.leadId)).toEqual([a]);
    const before = Date.now();
    expect(await release([token(b)], 3600)).toBe(1);
    const planned = Date.parse((await get(`/v2/lead/detail/${b}/`).expect(200)).body.data.planningCallDateTime);
    expect(planned).toBeGreaterThanOrEqual(before + 3599_000);
    expect(planned).toBeLessThanOrEqual(Date.now() + 3601_000);
    expect(await claim([order.id])).toEqual([]);
    expect((await get(`/v2/lead/callable/${b}/`).expect(200)).body.data.reasons).toEqual(['not_yet_due']);
  });

  it('confirm: dialable while a rule allows; a do-not-call add or a paused order refuses and ends the claim', async () => {
    const order = await createDialingOrder(t);
    const [ok, listed] = await createLeads(t, order, 2);
    const list = await claim([order.id]);
    const token = (id: number) => list.find((l) => l.leadId === id)!.claimToken;
    const phone = (await get(`/v2/lead/detail/${listed}/`).expect(200)).body.data.phone;
    await post('/v2/dnc/add/', { phones: [phone] }).expect(200);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await confirm([token(ok), token(listed), unknown])).toEqual([
      { claimToken: token(ok), dialable: true, reasons: [] },
      { claimToken: token(listed), dialable: false, reasons: ['dnc'] },
      { claimToken: unknown, dialable: false, reasons: ['claim_ended'] },
    ]);
    expect(await liveClaims([listed])).toBe(0);
    expect(await liveClaims([ok])).toBe(1);
    await post(`/v2/order/update/${order.id}/`, { autoDialingEnabled: false }).expect(200);
    expect(await confirm([token(ok)])).toEqual([{ claimToken: token(ok), dialable: false, reasons: ['order_autodialing_disabled'] }]);
    expect(await confirm([token(ok)])).toEqual([{ claimToken: token(ok), dialable: false, reasons: ['claim_ended'] }]);
  });

  it("confirm across orders reads each order's rules and today's qualified count: a limit reached refuses only its order's leads", async () => {
    const [limited, open] = [await createDialingOrder(t), await createDialingOrder(t)];
    const [first, second] = await createLeads(t, limited, 2);
    const [other] = await createLeads(t, open, 1);
    const list = await claim([limited.id, open.id]);
    const token = (id: number) => list.find((l) => l.leadId === id)!.claimToken;
    await post(`/v2/order/update/${limited.id}/`, { qualifiedLeadsPerDayLimit: 1 }).expect(200);
    expect(await confirm([token(first), token(other)])).toEqual([
      { claimToken: token(first), dialable: true, reasons: [] },
      { claimToken: token(other), dialable: true, reasons: [] },
    ]);
    // One lead of the limited order qualified today: the limit is reached for that order alone.
    await t.ds.query(`UPDATE lead SET qualified_at = now() WHERE id = $1`, [first]);
    expect(await confirm([token(second), token(other)])).toEqual([
      { claimToken: token(second), dialable: false, reasons: ['qualified_limit_reached'] },
      { claimToken: token(other), dialable: true, reasons: [] },
    ]);
  });

  it('a recorded call ends its lead’s claim; a stale or foreign claimToken is a 409 and records nothing', async () => {
    const order = await createDialingOrder(t);
    const [a, b, c] = await createLeads(t, order, 3);
    const list = await claim([order.id]);
    const of = (id: number) => list.find((l) => l.leadId === id)!;
    // Another lead's token.
    const foreign = await post('/v2/call/create/', await callBody(of(a), of(b).claimToken), telephony).expect(409);
    expect(foreign.body.success).toBe(false);
    expect((await get(`/v2/call/?leadIds=${a}`).expect(200)).body.data.total).toBe(0);
    await post('/v2/call/create/', await callBody(of(a), of(a).claimToken), telephony).expect(200);
    expect(await liveClaims([a])).toBe(0);
    // Ended: the same token again is stale.
    await post('/v2/call/create/', await callBody(of(a), of(a).claimToken), telephony).expect(409);
    // Expired: stale too.
    await t.ds.query(`UPDATE dialer_claim SET lease_expires_at = now() - interval '1 second' WHERE lead_id = $1`, [b]);
    await post('/v2/call/create/', await callBody(of(b), of(b).claimToken), telephony).expect(409);
    // Without a token: any claim of the lead ends.
    await post('/v2/call/create/', await callBody(of(c)), telephony).expect(200);
    expect(await liveClaims([c])).toBe(0);
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM dialer_claim WHERE lead_id = $1`, [c]))[0].n).toBe(0);
  });

  it('an expired lease returns the lead; live claims are listed for operators with an exact total', async () => {
    const order = await createDialingOrder(t);
    const ids = await createLeads(t, order, 3);
    const list = await claim([order.id], 50, { leaseSeconds: 10 });
    expect(Date.parse(list[0].leaseExpiresAt) - Date.now()).toBeLessThanOrEqual(10_000);
    const page = (await get(`/v2/dialer/claims/?orderId=${order.id}&dialerId=dialer-a&limit=2`, telephony).expect(200)).body.data;
    expect(page.total).toBe(3);
    expect(page.list).toHaveLength(2);
    expect(page.list[0]).toEqual({
      claimToken: expect.any(String),
      dialerId: 'dialer-a',
      orderId: order.id,
      leadId: expect.any(Number),
      claimedAt: expect.any(String),
      leaseExpiresAt: expect.any(String),
    });
    expect((await get(`/v2/dialer/claims/?orderId=${order.id}&dialerId=other`, telephony).expect(200)).body.data.total).toBe(0);
    // The lease runs out (moved to the past rather than waited for).
    await t.ds.query(`UPDATE dialer_claim SET lease_expires_at = now() - interval '1 second' WHERE lead_id = ANY($1)`, [ids]);
    expect((await get(`/v2/dialer/claims/?orderId=${order.id}`, telephony).expect(200)).body.data.total).toBe(0);
    const again = await claim([order.id]);
    expect(again.map((l) => l.leadId).sort()).toEqual([...ids].sort());
    expect(new Set(again.map((l) => l.claimToken)).size).toBe(3);
    expect(again.some((l) => list.some((old) => old.claimToken === l.claimToken))).toBe(false);
    const metrics = (await get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/dialer_claims_total\{event="expired"\} [1-9]/);
    expect(metrics).toMatch(/dialer_claims_total\{event="claimed"\} [1-9]/);
    expect(metrics).toMatch(/dialer_claims_total\{event="refused"\} [1-9]/);
    expect(metrics).toMatch(/dialer_claims_total\{event="released"\} [1-9]/);
  });

  it('refuses bad input with 400 and changes nothing; keys without the telephony scope get 403', async () => {
    const order = await createDialingOrder(t);
    await createLead(t, order);
    const bad: object[] = [
      { dialerId: '', limit: 1 },
      { dialerId: 'x'.repeat(101), limit: 1 },
      { dialerId: 'd', limit: 0 },
      { dialerId: 'd', limit: 501 },
      { dialerId: 'd', limit: 1, leaseSeconds: 9 },
      { dialerId: 'd', limit: 1, leaseSeconds: 601 },
      { dialerId: 'd', limit: 1, orderIds: [order.id, 2_000_000_000] },
      { dialerId: 'd', limit: 1, orderIds: ['x'] },
      { limit: 1 },
    ];
    for (const body of bad) await post('/v2/dialer/claim/', body, telephony).expect(400);
    await post('/v2/dialer/release/', { claimTokens: ['nope'] }, telephony).expect(400);
    await post('/v2/dialer/release/', { claimTokens: [] }, telephony).expect(400);
    await post('/v2/dialer/confirm/', { claimTokens: ['nope'] }, telephony).expect(400);
    await post('/v2/dialer/release/', { claimTokens: ['00000000-0000-4000-8000-000000000000'], retryAfterSeconds: 0 }, telephony).expect(400);
    await get('/v2/dialer/claims/?limit=0', telephony).expect(400);
    expect(await liveClaims(await t.ds.query(`SELECT id FROM lead WHERE order_id = $1`, [order.id]).then((r) => r.map((x: { id: number }) => x.id)))).toBe(0);
    const apiOnly = await t.keyWith('api');
    await post('/v2/dialer/claim/', { dialerId: 'd', limit: 1 }, apiOnly).expect(403);
    await post('/v2/call/create/', { ...leadBody(order), claimToken: 'not-a-uuid' }, telephony).expect(400);
  });
});
