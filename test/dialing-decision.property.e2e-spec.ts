import fc from 'fast-check';
import request from 'supertest';
import { decideDialing, type DialingRules, holdAt } from '../src/modules/dialing/domain/dialing-decision';
import { nextCallableAt } from '../src/modules/orders/domain/callable-time';
import { planningZone } from '../src/modules/orders/domain/time-zone';
import { callStatusId, recordCall } from './factories/calls';
import { assignOrderToClient, insertClient } from './factories/clients';
import { ANY_TIME, createLeadOrder, leadBody, testPhone, type TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

type List = { scope: 'global' } | { scope: 'client' } | { scope: 'order'; order: number };
type Outcome = 'not-answered' | 'answered' | 'callback';
type Action =
  | { kind: 'create'; order: number; phone: number; consent: boolean; offset: number }
  | { kind: 'add'; list: List; phone: number; temporary: boolean }
  | { kind: 'remove'; list: List; phone: number }
  | { kind: 'expire'; list: List; phone: number }
  | { kind: 'call'; lead: number; outcome: Outcome; optOut: boolean; late: boolean }
  | { kind: 'redeliver'; lead: number; optOut: boolean }
  | { kind: 'consent'; lead: number; given: boolean }
  | { kind: 'phone'; lead: number; phone: number }
  | { kind: 'callAt'; lead: number; minutes: number }
  | { kind: 'requireConsent'; order: number; required: boolean }
  | { kind: 'cap'; order: number; max: number | null }
  | { kind: 'pause'; order: number; paused: boolean }
  | { kind: 'schedule'; order: number; closedToday: boolean };

const PHONES = 3;
const ORDERS = 3;
const list = fc.oneof(
  fc.constant<List>({ scope: 'global' }),
  fc.constant<List>({ scope: 'client' }),
  fc.nat(ORDERS - 1).map<List>((order) => ({ scope: 'order', order })),
);
const lead = fc.nat(30);
const order = fc.nat(ORDERS - 1);
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      order,
      phone: fc.nat(PHONES - 1),
      consent: fc.boolean(),
      offset: fc.integer({ min: -12, max: 14 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('add' as const), list, phone: fc.nat(PHONES - 1), temporary: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), list, phone: fc.nat(PHONES - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('expire' as const), list, phone: fc.nat(PHONES - 1) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      lead,
      outcome: fc.constantFrom<Outcome>('not-answered', 'not-answered', 'answered', 'callback'),
      optOut: fc.nat(5).map((n) => n === 0),
      late: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('redeliver' as const), lead, optOut: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('consent' as const), lead, given: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('phone' as const), lead, phone: fc.nat(PHONES - 1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('callAt' as const), lead, minutes: fc.integer({ min: -60, max: 4 * 24 * 60 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('requireConsent' as const), order, required: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cap' as const), order, max: fc.option(fc.integer({ min: 1, max: 2 }), { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pause' as const), order, paused: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('schedule' as const), order, closedToday: fc.boolean() }) },
);

/** A week open all day but for today (UTC weekday, so every offset's "now" is near a closed day or in the open hours of another). */
function closedToday(): unknown[] {
  const today = (new Date().getUTCDay() + 6) % 7;
  return ANY_TIME.map((day, i) => (i === today ? [] : day));
}

/**
 * Random sequences of every writer of the dialing decision's inputs (creates, list adds, removals and expiries at every scope, calls of
 * every outcome recorded in and out of order, opt-outs and their re-deliveries, consent given and withdrawn, new numbers, explicit call
 * times, consent rules, caps raised and lowered, orders paused, schedules changed). After every step, for every lead, what the readers
 * show (v2 and v1 planned call, dialingHold, callable, the order's stats) equals the decision recomputed from scratch: the facts read
 * from the tables (entries, calls, the lead, the order) and decideDialing.
 */
describe('the dialing decision holds on every path (property)', () => {
  let t: TestApp;
  let orders: TestOrder[];
  let client: number;
  let statuses: Record<Outcome, number>;
  let seq = 0;
  const post = (path: string, body: object) => request(t.http).post(path).set('X-Api-Key', t.apiKey).send(body);
  const get = async (path: string) => (await request(t.http).get(path).set('X-Api-Key', t.apiKey).expect(200)).body.data;

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0', DNC_EXPIRY_SWEEP_MS: '100' });
    client = await insertClient(t);
    orders = [];
    for (let i = 0; i < ORDERS; i++) orders.push(await createLeadOrder(t));
    await assignOrderToClient(t, orders[0].id, client);
    await assignOrderToClient(t, orders[1].id, client);
    const [group] = await t.ds.query(
      `INSERT INTO call_attempt_group (title, intervals, repeat_last_interval) VALUES ('decision-prop', '{10, 120}', true) RETURNING id`,
    );
    for (const o of orders) await post(`/v2/order/update/${o.id}/`, { callAttemptGroupId: group.id }).expect(200);
    const [callback] = await t.ds.query<{ id: number }[]>(`SELECT id FROM call_status WHERE is_callback ORDER BY id LIMIT 1`);
    statuses = { 'not-answered': await callStatusId(t, 'not-answered'), answered: await callStatusId(t, 'answered'), callback: callback.id };
  });
  afterAll(async () => {
    await t.close();
  });

  /** The decision from scratch for each lead, and what each reader shows of it; equal, or the first difference. */
  async function check(leadIds: number[], step: Action): Promise<string | null> {
    const now = new Date();
    const settings = new Map<number, DialingRules & { clientId: number | null; autoDialingEnabled: boolean }>();
    for (const o of orders) {
      const d = await get(`/v2/order/detail/${o.id}/`);
      settings.set(o.id, { ...d, holidays: [] });
    }
    const leads = await t.ds.query<
      { id: number; orderId: number; phone: string; timeZone: string | null; utcOffset: number; hasConsent: boolean; dialAfter: Date | null }[]
    >(
      `SELECT id, order_id AS "orderId", phone, time_zone AS "timeZone", utc_offset AS "utcOffset", consent IS NOT NULL AS "hasConsent",
              dial_after AS "dialAfter" FROM lead WHERE id = ANY($1::int[]) ORDER BY id`,
      [leadIds],
    );
    const due = new Map<number, number>();
    for (const l of leads) {
      const order = settings.get(l.orderId)!;
      const entries = await t.ds.query<{ scope: string; orderId: number | null; clientId: number | null }[]>(
        `SELECT scope, order_id AS "orderId", client_id AS "clientId" FROM dnc_entry WHERE phone = $1 AND (expires_at IS NULL OR expires_at > $2)`,
        [l.phone, now],
      );
      const dncListed = entries.some(
        (e) =>
          e.scope === 'global' ||
          (e.scope === 'order' && e.orderId === l.orderId) ||
          (e.scope === 'client' && e.clientId !== null && e.clientId === order.clientId),
      );
      const calls = await t.ds.query<{ at: Date }[]>(`SELECT created_at AS at FROM call WHERE lead_id = $1`, [l.id]);
      const expected = decideDialing({
        now,
        order,
        lead: { timeZone: l.timeZone, utcOffset: l.utcOffset, hasConsent: l.hasConsent, dialAfter: l.dialAfter },
        dncListed,
        callStarts: calls.map((c) => c.at),
        previousHold: null,
      });
      const v2 = await get(`/v2/lead/detail/${l.id}/`);
      const v1 = await get(`/v1/lead/detail/${l.id}/`);
      const callable = await get(`/v2/lead/callable/${l.id}/`);
      const stored = v2.planningCallDateTime === '' ? null : new Date(v2.planningCallDateTime as string);
      // The stored moment seen from now: a past one is due now, in its window (time passed since it was decided); in whole seconds, as shown.
      const zone = planningZone(order, l);
      const seen = stored && nextCallableAt({ now: stored > now ? stored : now, schedule: order.callSchedule, holidays: [], zone });
      const expectedHold = holdAt(expected.hold, expected.capUntil, now)?.reasons ?? null;
      const shown = {
        planned: seen ? Math.floor(seen.getTime() / 1000) : null,
        v1: v1.UF_CALL_DATE_TIME,
        hold: v2.dialingHold?.reasons ?? null,
        callable: (callable.reasons as string[]).filter((r) => ['dnc', 'no_consent', 'daily_attempt_cap', 'order_autodialing_disabled'].includes(r)),
      };
      const want = {
        planned: expected.planningCallAt ? Math.floor(expected.planningCallAt.getTime() / 1000) : null,
        v1: stored ? Math.floor(stored.getTime() / 1000) : 0,
        hold: expectedHold,
        callable: [
          ...(expectedHold?.includes('no_consent') ? ['no_consent'] : []),
          ...(order.autoDialingEnabled ? [] : ['order_autodialing_disabled']),
          ...(expectedHold?.includes('daily_attempt_cap') ? ['daily_attempt_cap'] : []),
          ...(expectedHold?.includes('dnc') ? ['dnc'] : []),
        ],
      };
      if (JSON.stringify(shown) !== JSON.stringify(want)) return JSON.stringify({ step, lead: l.id, shown, want });
      if (stored && stored <= now && order.autoDialingEnabled) due.set(l.orderId, (due.get(l.orderId) ?? 0) + 1);
    }
    for (const o of orders) {
      const stats = await get(`/v2/order/stats/${o.id}/?asOf=${encodeURIComponent(now.toISOString())}`);
      const own = await t.ds.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM lead WHERE order_id = $1 AND NOT (id = ANY($2::int[]))`, [o.id, leadIds]);
      if (own[0].n === 0 && stats.callableNow !== (due.get(o.id) ?? 0))
        return JSON.stringify({ step, order: o.id, callableNow: stats.callableNow, due: due.get(o.id) ?? 0 });
    }
    return null;
  }

  it("the decision's do-not-call part in SQL (dnc_hold_reasons) agrees with decideDialing on random leads", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
        fc.array(fc.integer({ min: 0, max: 30 * 3_600_000 }), { maxLength: 4 }),
        fc.option(fc.integer({ min: -3_600_000, max: 3 * 86_400_000 }), { nil: null }),
        async (consentRequired, hasConsent, cap, ago, wanted) => {
          const now = new Date();
          const facts = {
            now,
            order: { callSchedule: ANY_TIME as never, holidays: [], ignoreLeadTimezone: false, defaultUtcOffset: 0, consentRequired, maxAttemptsPerDay: cap },
            lead: { timeZone: null, utcOffset: 3, hasConsent, dialAfter: wanted === null ? null : new Date(now.getTime() + wanted) },
            callStarts: ago.map((ms) => new Date(now.getTime() - ms)),
            previousHold: null,
          };
          const before = decideDialing({ ...facts, dncListed: false });
          const listed = decideDialing({ ...facts, dncListed: true, previousHold: before.hold });
          const [{ reasons }] = await t.ds.query<{ reasons: string[] }[]>(`SELECT dnc_hold_reasons($1::varchar[]) AS reasons`, [before.hold?.reasons ?? null]);
          expect(reasons).toEqual(listed.hold?.reasons);
          expect([listed.planningCallAt, listed.capUntil]).toEqual([null, null]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('every reader shows the decision recomputed from scratch, after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 4, maxLength: 18 }), async (steps) => {
        const phones = Array.from({ length: PHONES }, () => testPhone());
        const leadIds: number[] = [];
        const lastCall = new Map<number, { platformCallId: string; statusId: number }>();
        for (const o of orders) {
          await post(`/v2/order/update/${o.id}/`, { consentRequired: false, maxAttemptsPerDay: null, autoDialingEnabled: true, callSchedule: ANY_TIME }).expect(
            200,
          );
        }
        const body = (l: List, phone: number, extra: object = {}) => ({
          phones: [phones[phone]],
          ...(l.scope === 'client' ? { clientId: client } : l.scope === 'order' ? { orderId: orders[l.order].id } : {}),
          ...extra,
        });
        const pick = (n: number) => leadIds[n % leadIds.length];
        // Every run starts with one lead per order, so every list and rule meets leads.
        const actions: Action[] = [...orders.map((_, i) => ({ kind: 'create' as const, order: i, phone: i % PHONES, consent: i !== 1, offset: 3 })), ...steps];
        for (const a of actions) {
          let sweep = false;
          if (a.kind === 'create') {
            const consent = a.consent ? { consent: { givenAt: new Date(Date.now() - 60_000).toISOString(), source: 'web_form' } } : {};
            const res = await post('/v2/lead/create/', leadBody(orders[a.order], { phone: phones[a.phone], utcOffset: a.offset, ...consent })).expect(200);
            leadIds.push(res.body.data.id as number);
          } else if (a.kind === 'add') {
            await post('/v2/dnc/add/', body(a.list, a.phone, a.temporary ? { expiresAt: new Date(Date.now() + 3_600_000).toISOString() } : {})).expect(200);
          } else if (a.kind === 'remove') {
            // An opt-out's entry is an admin's to remove: the test key has every scope.
            await post('/v2/dnc/remove/', body(a.list, a.phone)).expect(200);
          } else if (a.kind === 'expire') {
            const owner = a.list.scope === 'client' ? client : a.list.scope === 'order' ? orders[a.list.order].id : 0;
            const n = await t.ds.query(
              `UPDATE dnc_entry SET expires_at = now() - interval '1 second' WHERE phone = $1 AND scope = $2 AND coalesce(order_id, client_id, 0) = $3 RETURNING 1`,
              [phones[a.phone], a.list.scope, owner],
            );
            sweep = n.length > 0;
          } else if (a.kind === 'call' && leadIds.length) {
            const id = pick(a.lead);
            const [{ orderId }] = await t.ds.query<{ orderId: number }[]>(`SELECT order_id AS "orderId" FROM lead WHERE id = $1`, [id]);
            const platformCallId = `decision-prop-${process.pid}-${++seq}`;
            const statusId = statuses[a.outcome];
            // Late: a record of a call a day and a half ago, arriving now.
            const startedAt = new Date(Date.now() - (a.late ? 36 * 3_600_000 : 60_000));
            await recordCall(t, {
              leadId: id,
              orderId,
              platformCallId,
              statusId,
              totalDurationSeconds: 5,
              waitTimeDurationSeconds: 5,
              talkTimeDurationSeconds: 0,
              startedAt,
              optOut: a.optOut,
            });
            lastCall.set(id, { platformCallId, statusId });
          } else if (a.kind === 'redeliver' && lastCall.size) {
            const [id, c] = [...lastCall.entries()][a.lead % lastCall.size];
            const [{ orderId }] = await t.ds.query<{ orderId: number }[]>(`SELECT order_id AS "orderId" FROM lead WHERE id = $1`, [id]);
            await recordCall(t, {
              leadId: id,
              orderId,
              ...c,
              totalDurationSeconds: 5,
              waitTimeDurationSeconds: 5,
              talkTimeDurationSeconds: 0,
              startedAt: new Date(Date.now() - 60_000),
              optOut: a.optOut,
            });
          } else if (a.kind === 'consent' && leadIds.length) {
            const consent = a.given ? { givenAt: new Date(Date.now() - 1000).toISOString(), source: 'sms' } : null;
            await post(`/v2/lead/update/${pick(a.lead)}/`, { consent }).expect(200);
          } else if (a.kind === 'phone' && leadIds.length) {
            await post(`/v2/lead/update/${pick(a.lead)}/`, { phone: phones[a.phone] }).expect(200);
          } else if (a.kind === 'callAt' && leadIds.length) {
            await post(`/v1/lead/update/${pick(a.lead)}/`, { call_timestamp: Math.floor(Date.now() / 1000) + a.minutes * 60 }).expect(200);
          } else if (a.kind === 'requireConsent') {
            await post(`/v2/order/update/${orders[a.order].id}/`, { consentRequired: a.required }).expect(200);
          } else if (a.kind === 'cap') {
            await post(`/v2/order/update/${orders[a.order].id}/`, { maxAttemptsPerDay: a.max }).expect(200);
          } else if (a.kind === 'pause') {
            await post(`/v2/order/update/${orders[a.order].id}/`, { autoDialingEnabled: !a.paused }).expect(200);
          } else if (a.kind === 'schedule') {
            await post(`/v2/order/update/${orders[a.order].id}/`, { callSchedule: a.closedToday ? closedToday() : ANY_TIME }).expect(200);
          }
          // An expiry reaches the leads with the sweep (100 ms here); nothing else may lag.
          let problem = await check(leadIds, a);
          for (let i = 0; sweep && problem && i < 50; i++) {
            await new Promise((r) => setTimeout(r, 100));
            problem = await check(leadIds, a);
          }
          expect(problem).toBeNull();
        }
      }),
      { numRuns: 12 },
    );
  }, 600_000);
});
