import request from 'supertest';
import { nextLocalMidnight, noonOffset, redialOrder } from './factories/dialing';
import { createLead, TestOrder } from './factories/leads';
import { callStatusId, recordCall } from './factories/calls';
import { createTestApp, TestApp } from './support/test-app';

/** maxAttemptsPerDay: once a lead's calls of its local day reach it, its next call waits for its next local day. */
describe('daily attempt cap', () => {
  let t: TestApp;
  let notAnswered: number;
  let seq = 0;
  const post = (path: string, body: unknown) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', t.apiKey)
      .send(body as object);
  const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey);
  const offset = noonOffset;

  /** An order with a 10-minute redial interval, dialing any time, capped at `cap` calls a day. */
  const cappedOrder = (cap: number | null): Promise<TestOrder> => redialOrder(t, { maxAttemptsPerDay: cap });
  const call = (o: TestOrder, leadId: number) =>
    recordCall(t, {
      leadId,
      orderId: o.id,
      platformCallId: `cap-${leadId}-${++seq}`,
      statusId: notAnswered,
      totalDurationSeconds: 30,
      waitTimeDurationSeconds: 30,
      talkTimeDurationSeconds: 0,
      startedAt: new Date(Date.now() - 120_000),
    });

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    notAnswered = await callStatusId(t, 'not-answered');
  });
  afterAll(async () => {
    await t.close();
  });

  it('plans the next call at the next local day once the cap is reached; callable says daily_attempt_cap', async () => {
    const o = await cappedOrder(2);
    const id = await createLead(t, o, { utcOffset: offset() });
    await call(o, id);
    const first = (await get(`/v2/lead/detail/${id}/`).expect(200)).body.data;
    expect(Date.parse(first.planningCallDateTime)).toBeLessThan(nextLocalMidnight());
    expect((await get(`/v2/lead/callable/${id}/`).expect(200)).body.data.reasons).not.toContain('daily_attempt_cap');

    await call(o, id);
    const second = (await get(`/v2/lead/detail/${id}/`).expect(200)).body.data;
    expect(Date.parse(second.planningCallDateTime)).toBe(nextLocalMidnight());
    const c = (await get(`/v2/lead/callable/${id}/`).expect(200)).body.data;
    expect(c.reasons).toContain('daily_attempt_cap');
    expect(Date.parse(c.nextCallableAt)).toBe(nextLocalMidnight());
    // v1 reads the same planned call.
    const v1 = (await get(`/v1/lead/detail/${id}/`).expect(200)).body.data;
    expect(v1.UF_CALL_DATE_TIME * 1000).toBe(nextLocalMidnight());
  });

  it('without a cap the redial interval applies however many calls a day', async () => {
    const o = await cappedOrder(null);
    const id = await createLead(t, o, { utcOffset: offset() });
    for (let i = 0; i < 3; i++) await call(o, id);
    const lead = (await get(`/v2/lead/detail/${id}/`).expect(200)).body.data;
    expect(Date.parse(lead.planningCallDateTime)).toBeLessThan(nextLocalMidnight());
    expect((await get(`/v2/lead/callable/${id}/`).expect(200)).body.data.reasons).not.toContain('daily_attempt_cap');
  });

  it('a recorded call does not plan a lead of a consentRequired order that has no consent', async () => {
    const o = await cappedOrder(null);
    await post(`/v2/order/update/${o.id}/`, { consentRequired: true }).expect(200);
    const id = await createLead(t, o, { utcOffset: offset() });
    await call(o, id);
    const lead = (await get(`/v2/lead/detail/${id}/`).expect(200)).body.data;
    expect(lead.planningCallDateTime).toBe('');
    expect((await get(`/v2/lead/callable/${id}/`).expect(200)).body.data.reasons).toEqual(['no_consent']);
  });
});
