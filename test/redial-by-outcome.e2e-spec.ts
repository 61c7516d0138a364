import request from 'supertest';
import { recordCall } from './factories/calls';
import { redialOrder } from './factories/dialing';
import { createLead, type TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Redial by call outcome: a call's status decides the lead's next call through the dialing decision. Its rule (or its order's for
 * that status) waits its own delay instead of the attempt group's interval, stops the lead after that many calls in that status,
 * or stops it at once; callable names the rule. Without a rule, the attempt group's ladder (here: every 10 minutes).
 */
describe('redial by call outcome', () => {
  let t: TestApp;
  let status: Record<'busy' | 'no-answer' | 'voicemail' | 'wrong-number' | 'failed', number>;
  let seq = 0;
  const post = (path: string, body: object) => request(t.http).post(path).set('X-Api-Key', t.apiKey).send(body);
  const get = async (path: string) => (await request(t.http).get(path).set('X-Api-Key', t.apiKey).expect(200)).body.data;
  /** A 10-second call of `statusId` that ended 50 seconds ago; returns when it ended (epoch ms, to the second). */
  const call = async (o: TestOrder, leadId: number, statusId: number) => {
    const startedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    await recordCall(t, {
      leadId,
      orderId: o.id,
      platformCallId: `outcome-${leadId}-${++seq}`,
      statusId,
      totalDurationSeconds: 10,
      waitTimeDurationSeconds: 10,
      talkTimeDurationSeconds: 0,
      startedAt,
    });
    return startedAt.getTime() + 10_000;
  };
  /** The lead's planned call (epoch ms; null: none) and callable's reasons. */
  const state = async (id: number) => {
    const v2 = await get(`/v2/lead/detail/${id}/`);
    const callable = await get(`/v2/lead/callable/${id}/`);
    return { planned: v2.planningCallDateTime === '' ? null : new Date(v2.planningCallDateTime as string).getTime(), reasons: callable.reasons as string[] };
  };
  const MINUTE = 60_000;

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0', REFERENCE_CACHE_TTL_MS: '0' });
    const rows = await t.ds.query<{ id: number; code: keyof typeof status }[]>(`SELECT id, code FROM call_status`);
    status = Object.fromEntries(rows.map((r) => [r.code, r.id])) as typeof status;
  });
  afterAll(async () => {
    await t.close();
  });

  it("the catalogue's rules: busy after 15 minutes, no answer after 2 hours, voicemail the next day, wrong number final", async () => {
    const byCode = new Map((await get('/v2/call-status/')).map((s: { code: string; redial: unknown }) => [s.code, s.redial]));
    expect(byCode.get('busy')).toEqual({ afterMinutes: 15, maxAttempts: null, final: false });
    expect(byCode.get('no-answer')).toEqual({ afterMinutes: 120, maxAttempts: null, final: false });
    expect(byCode.get('voicemail')).toEqual({ afterMinutes: 1440, maxAttempts: null, final: false });
    expect(byCode.get('wrong-number')).toEqual({ afterMinutes: null, maxAttempts: null, final: true });
    expect(byCode.get('failed')).toEqual({ afterMinutes: null, maxAttempts: null, final: false });
  });

  it("a status's delay replaces the attempt group's interval; a status without a rule keeps the group's", async () => {
    const o = await redialOrder(t);
    const id = await createLead(t, o);
    const busyEnded = await call(o, id, status.busy);
    expect(await state(id)).toEqual({ planned: busyEnded + 15 * MINUTE, reasons: ['not_yet_due'] });
    const failedEnded = await call(o, id, status.failed);
    expect((await state(id)).planned).toBe(failedEnded + 10 * MINUTE);
  });

  it('a final outcome stops the lead, callable says final_outcome; a later call time dials it again', async () => {
    const o = await redialOrder(t);
    const id = await createLead(t, o);
    await call(o, id, status['wrong-number']);
    expect(await state(id)).toEqual({ planned: null, reasons: ['final_outcome'] });
    expect((await get(`/v1/lead/detail/${id}/`)).UF_CALL_DATE_TIME).toBe(0);
    const at = Math.floor(Date.now() / 1000) + 600;
    await post(`/v1/lead/update/${id}/`, { call_timestamp: at }).expect(200);
    expect(await state(id)).toEqual({ planned: at * 1000, reasons: ['not_yet_due'] });
  });

  it("an order's rule overrides the status's: its delay, then its maxAttempts-th call in that status stops the lead", async () => {
    const o = await redialOrder(t);
    await post(`/v2/order/update/${o.id}/`, { redialRules: [{ statusId: status.busy, afterMinutes: 5, maxAttempts: 2 }] }).expect(200);
    expect((await get(`/v2/order/detail/${o.id}/`)).redialRules).toEqual([{ statusId: status.busy, afterMinutes: 5, maxAttempts: 2, final: false }]);
    const id = await createLead(t, o);
    const first = await call(o, id, status.busy);
    expect((await state(id)).planned).toBe(first + 5 * MINUTE);
    // A call in another status does not count toward busy's cap.
    await call(o, id, status.failed);
    await call(o, id, status.busy);
    expect(await state(id)).toEqual({ planned: null, reasons: ['outcome_attempts_exhausted'] });
    // Another lead of an order without the override: the catalogue's 15 minutes, no cap.
    const other = await redialOrder(t);
    const lead = await createLead(t, other);
    await call(other, lead, status.busy);
    const again = await call(other, lead, status.busy);
    expect((await state(lead)).planned).toBe(again + 15 * MINUTE);
  });

  it('a rule changed through the catalogue applies to the next call', async () => {
    const created = await post('/v2/call-status/create/', {
      code: 'line-dead',
      title: 'Line dead',
      category: 'failed',
      redial: { final: true },
    }).expect(200);
    const lineDead: number = created.body.data.id;
    expect((await get(`/v2/call-status/detail/${lineDead}/`)).redial).toEqual({ afterMinutes: null, maxAttempts: null, final: true });
    await post(`/v2/call-status/update/${lineDead}/`, { redial: { afterMinutes: 30 } }).expect(200);
    const o = await redialOrder(t);
    const id = await createLead(t, o);
    const ended = await call(o, id, lineDead);
    expect((await state(id)).planned).toBe(ended + 30 * MINUTE);
  });

  it.each([
    ['an unknown status', { redialRules: [{ statusId: 99999, afterMinutes: 5 }] }, 'redialRules'],
    [
      'a status twice',
      {
        redialRules: [
          { statusId: 3, afterMinutes: 5 },
          { statusId: 3, final: true },
        ],
      },
      'redialRules',
    ],
    ['a negative delay', { redialRules: [{ statusId: 3, afterMinutes: -1 }] }, 'redialRules.0.afterMinutes'],
    ['a cap of 0', { redialRules: [{ statusId: 3, maxAttempts: 0 }] }, 'redialRules.0.maxAttempts'],
    ['no statusId', { redialRules: [{ afterMinutes: 5 }] }, 'redialRules.0.statusId'],
    ['not a list', { redialRules: { statusId: 3 } }, 'redialRules'],
  ])('an order refuses %s in redialRules (400) and keeps its rules', async (_, body, field) => {
    const o = await redialOrder(t);
    await post(`/v2/order/update/${o.id}/`, { redialRules: [{ statusId: status.voicemail, final: true }] }).expect(200);
    const res = await post(`/v2/order/update/${o.id}/`, body).expect(400);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect((await get(`/v2/order/detail/${o.id}/`)).redialRules).toEqual([{ statusId: status.voicemail, afterMinutes: null, maxAttempts: null, final: true }]);
  });

  it.each([
    ['a delay above a year', { redial: { afterMinutes: 525_601 } }, 'redial.afterMinutes'],
    ['a cap of 0', { redial: { maxAttempts: 0 } }, 'redial.maxAttempts'],
    ['final not a boolean', { redial: { final: 'yes' } }, 'redial.final'],
    ['a rule that is not an object', { redial: 15 }, 'redial'],
  ])('a call status refuses %s (400) and keeps its rule', async (_, body, field) => {
    const res = await post(`/v2/call-status/update/${status.busy}/`, body).expect(400);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect((await get(`/v2/call-status/detail/${status.busy}/`)).redial).toEqual({ afterMinutes: 15, maxAttempts: null, final: false });
  });
});
