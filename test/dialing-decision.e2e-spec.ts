import request from 'supertest';
import { callStatusId, recordCall } from './factories/calls';
import { nextLocalMidnight, noonOffset, redialOrder } from './factories/dialing';
import { createLead, testPhone, type TestOrder } from './factories/leads';
import { type FeedEvent, feedHead, followFeed } from './support/event-feed';
import { createTestApp, TestApp } from './support/test-app';

/**
 * One decision of whether and when a lead may be dialled, whichever path writes an input of it: v1 call times, consent given and
 * withdrawn, late call records, phone changes of held leads, a lowered daily cap. Every reader (v2 detail, v1 detail, callable,
 * the order's stats, the feed) shows that one stored decision.
 */
describe('the dialing decision on every path', () => {
  let t: TestApp;
  let notAnswered: number;
  let seq = 0;
  const post = (path: string, body: object) => request(t.http).post(path).set('X-Api-Key', t.apiKey).send(body);
  const get = async (path: string) => (await request(t.http).get(path).set('X-Api-Key', t.apiKey).expect(200)).body.data;
  const offset = noonOffset;
  const consent = () => ({ givenAt: new Date(Date.now() - 60_000).toISOString(), source: 'web_form' });

  const order = (rules: { maxAttemptsPerDay?: number | null; consentRequired?: boolean } = {}) => redialOrder(t, rules);
  const call = (o: TestOrder, leadId: number, startedAt = new Date(Date.now() - 60_000)) =>
    recordCall(t, {
      leadId,
      orderId: o.id,
      platformCallId: `decision-${leadId}-${++seq}`,
      statusId: notAnswered,
      totalDurationSeconds: 10,
      waitTimeDurationSeconds: 10,
      talkTimeDurationSeconds: 0,
      startedAt,
    });
  /** What every reader says of a lead: v2 planned call and hold, v1 planned call, callable's reasons. */
  const readers = async (id: number) => {
    const [v2, v1, callable] = [await get(`/v2/lead/detail/${id}/`), await get(`/v1/lead/detail/${id}/`), await get(`/v2/lead/callable/${id}/`)];
    const planned = v2.planningCallDateTime === '' ? null : new Date(v2.planningCallDateTime as string).getTime();
    expect(v1.UF_CALL_DATE_TIME).toBe(planned === null ? 0 : planned / 1000);
    return { planned, hold: (v2.dialingHold?.reasons ?? null) as string[] | null, reasons: callable.reasons as string[] };
  };

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    notAnswered = await callStatusId(t, 'not-answered');
  });
  afterAll(async () => {
    await t.close();
  });

  it('v1 call_timestamp does not plan a lead its order holds for consent; no reader calls it due', async () => {
    const o = await order({ consentRequired: true });
    const id = await createLead(t, o);
    await post(`/v1/lead/update/${id}/`, { call_timestamp: Math.floor(Date.now() / 1000) + 60 }).expect(200);
    expect(await readers(id)).toEqual({ planned: null, hold: ['no_consent'], reasons: expect.arrayContaining(['no_consent']) });
    expect((await get(`/v2/order/stats/${o.id}/`)).callableNow).toBe(0);
    // Given consent, the lead is planned at the moment the integrator asked for.
    await post(`/v2/lead/update/${id}/`, { consent: consent() }).expect(200);
    const after = await readers(id);
    expect(after.hold).toBeNull();
    expect(after.planned).toBeGreaterThan(Date.now());
  });

  it('a late call record of an earlier day does not clear today’s cap', async () => {
    const o = await order({ maxAttemptsPerDay: 1 });
    const id = await createLead(t, o, { utcOffset: offset() });
    await call(o, id);
    const capped = await readers(id);
    expect(capped).toMatchObject({ hold: ['daily_attempt_cap'] });
    expect(capped.planned).toBeGreaterThanOrEqual(nextLocalMidnight());
    await call(o, id, new Date(Date.now() - 36 * 3_600_000));
    const after = await readers(id);
    expect(after.hold).toEqual(['daily_attempt_cap']);
    expect(after.planned).toBeGreaterThanOrEqual(nextLocalMidnight());
  });

  it('v1 call_timestamp of a capped lead moves to its next allowed window; a later day is kept', async () => {
    const o = await order({ maxAttemptsPerDay: 1 });
    const id = await createLead(t, o, { utcOffset: offset() });
    await call(o, id);
    await post(`/v1/lead/update/${id}/`, { call_timestamp: Math.floor(Date.now() / 1000) + 120 }).expect(200);
    expect((await readers(id)).planned).toBeGreaterThanOrEqual(nextLocalMidnight());
    const later = Math.floor(nextLocalMidnight() / 1000) + 2 * 86_400;
    await post(`/v1/lead/update/${id}/`, { call_timestamp: later }).expect(200);
    expect(await readers(id)).toMatchObject({ planned: later * 1000, hold: null });
  });

  it('withdrawing and giving consent again leaves a capped lead capped', async () => {
    const o = await order({ maxAttemptsPerDay: 1, consentRequired: true });
    const id = await createLead(t, o, { utcOffset: offset(), consent: consent() });
    await call(o, id);
    await post(`/v2/lead/update/${id}/`, { consent: null }).expect(200);
    expect(await readers(id)).toMatchObject({ planned: null, hold: ['no_consent'] });
    await post(`/v2/lead/update/${id}/`, { consent: consent() }).expect(200);
    const after = await readers(id);
    expect(after.hold).toEqual(['daily_attempt_cap']);
    expect(after.planned).toBeGreaterThanOrEqual(nextLocalMidnight());
  });

  it('a capped lead a list held, moved to another number, is planned after its cap, not today', async () => {
    const o = await order({ maxAttemptsPerDay: 1 });
    const phone = testPhone();
    const id = await createLead(t, o, { utcOffset: offset(), phone });
    await call(o, id);
    await post('/v2/dnc/add/', { phones: [phone], orderId: o.id }).expect(200);
    expect(await readers(id)).toMatchObject({ planned: null, hold: ['dnc'] });
    await post(`/v2/lead/update/${id}/`, { phone: testPhone() }).expect(200);
    const after = await readers(id);
    expect(after.hold).toEqual(['daily_attempt_cap']);
    expect(after.planned).toBeGreaterThanOrEqual(nextLocalMidnight());
  });

  it('lowering maxAttemptsPerDay moves the leads already over it to their next day; raising it plans them now', async () => {
    const o = await order({ maxAttemptsPerDay: 3 });
    const [over, under] = [await createLead(t, o, { utcOffset: offset() }), await createLead(t, o, { utcOffset: offset() })];
    await call(o, over);
    const before = await readers(over);
    expect(before.hold).toBeNull();
    expect(before.planned).toBeLessThan(nextLocalMidnight());
    await post(`/v2/order/update/${o.id}/`, { maxAttemptsPerDay: 1 }).expect(200);
    const lowered = await readers(over);
    expect(lowered.hold).toEqual(['daily_attempt_cap']);
    expect(lowered.planned).toBeGreaterThanOrEqual(nextLocalMidnight());
    expect((await readers(under)).hold).toBeNull();
    await post(`/v2/order/update/${o.id}/`, { maxAttemptsPerDay: 2 }).expect(200);
    const raised = await readers(over);
    expect(raised.hold).toBeNull();
    expect(raised.planned).toBeLessThan(nextLocalMidnight());
  });

  it('a lead created without consent for a listed number is held for both, and released only when both go', async () => {
    const o = await order({ consentRequired: true });
    const phone = testPhone();
    await post('/v2/dnc/add/', { phones: [phone], orderId: o.id }).expect(200);
    const id = await createLead(t, o, { phone });
    expect(await readers(id)).toEqual({ planned: null, hold: ['dnc', 'no_consent'], reasons: expect.arrayContaining(['dnc', 'no_consent']) });
    await post('/v2/dnc/remove/', { phones: [phone], orderId: o.id }).expect(200);
    expect(await readers(id)).toMatchObject({ planned: null, hold: ['no_consent'] });
  });

  it('the feed says why a lead stopped and started: dialingHold in the lead and in changed', async () => {
    const o = await order({ consentRequired: true });
    const phone = testPhone();
    const id = await createLead(t, o, { phone, consent: consent() });
    const head = await feedHead(t);
    await post('/v2/dnc/add/', { phones: [phone], orderId: o.id }).expect(200);
    await post(`/v2/lead/update/${id}/`, { consent: null }).expect(200);
    await post('/v2/dnc/remove/', { phones: [phone], orderId: o.id }).expect(200);
    await post(`/v2/lead/update/${id}/`, { consent: consent() }).expect(200);
    const ofLead = (e: FeedEvent) => e.type === 'lead.updated' && e.data.lead?.id === id;
    const events = (await followFeed(t, head, (es) => es.filter(ofLead).length >= 4)).events.filter(ofLead);
    expect(events.map((e) => [e.data.lead.dialingHold?.reasons ?? null, e.data.changed.includes('dialingHold')])).toEqual([
      [['dnc'], true],
      [['dnc', 'no_consent'], true],
      [['no_consent'], true],
      [null, true],
    ]);
    expect(events[0].data.changed).toContain('planningCallDateTime');
    expect(events[3].data.lead.planningCallDateTime).not.toBe('');
  });
});
