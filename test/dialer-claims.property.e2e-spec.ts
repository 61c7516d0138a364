import fc from 'fast-check';
import request from 'supertest';
import { callStatusId } from './factories/calls';
import { type ClaimedLead, createDialingOrder, createLeads } from './factories/dialer';
import type { TestOrder } from './factories/leads';
import { createSipEndpoint } from './factories/reference';
import { createTestApp, TestApp } from './support/test-app';

type Outcome = 'answered' | 'not-answered' | 'failed';
type Step =
  | { kind: 'claim'; limit: number; orders: number[] }
  | { kind: 'release'; picks: number[]; retry: boolean }
  | { kind: 'expire'; pick: number }
  | { kind: 'confirm'; picks: number[] }
  | { kind: 'call'; lead: number; outcome: Outcome; token: 'own' | 'other' | 'none' }
  | { kind: 'dnc'; lead: number; add: boolean }
  | { kind: 'autodial'; order: number; on: boolean };

const LEADS = 6;
const pick = fc.nat(20);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('claim' as const), limit: fc.integer({ min: 1, max: 4 }), orders: fc.subarray([0, 1], { minLength: 1 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('release' as const), picks: fc.array(pick, { minLength: 1, maxLength: 3 }), retry: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('expire' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('confirm' as const), picks: fc.array(pick, { minLength: 1, maxLength: 3 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      lead: fc.nat(LEADS - 1),
      outcome: fc.constantFrom<Outcome>('answered', 'not-answered', 'failed'),
      token: fc.constantFrom('own' as const, 'other' as const, 'none' as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('dnc' as const), lead: fc.nat(LEADS - 1), add: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('autodial' as const), order: fc.nat(1), on: fc.boolean() }) },
);

/**
 * Random sequences of claims, releases, expiries, confirmations, calls (every outcome, with the lead's token, another's or none) and
 * rule changes (do-not-call adds and removals, an order paused): after every step the leads a claim hands out are exactly those
 * `GET /v2/lead/callable` calls callable now, minus those a live claim holds.
 */
describe('dialer claims (property)', () => {
  let t: TestApp;
  let telephony: string;
  let sip: number;
  let orders: TestOrder[];
  const statuses = new Map<Outcome, number>();
  let calls = 0;
  const post = (path: string, body: object, key = t.apiKey) => request(t.http).post(path).set('X-Api-Key', key).send(body);

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    telephony = await t.keyWith('telephony');
    sip = await createSipEndpoint(t);
    orders = [await createDialingOrder(t, 2), await createDialingOrder(t, 1)];
    // A 10-minute redial ladder: an unanswered call plans the next one later.
    const [group] = await t.ds.query(`INSERT INTO call_attempt_group (title, intervals, repeat_last_interval) VALUES ('dialer', '{10}', true) RETURNING id`);
    for (const o of orders) await post(`/v2/order/update/${o.id}/`, { callAttemptGroupId: group.id }).expect(200);
    for (const o of ['answered', 'not-answered', 'failed'] as const) statuses.set(o, await callStatusId(t, o));
  });
  afterAll(async () => {
    await t.close();
  });

  const liveTokens = async (): Promise<Map<string, number>> =>
    new Map(
      (
        await t.ds.query<{ token: string; lead: number }[]>(`SELECT claim_token AS token, lead_id AS lead FROM dialer_claim WHERE lease_expires_at > now()`)
      ).map((r) => [r.token, r.lead]),
    );

  /** What a claim may hand out now: the leads `callable` calls callable now, minus those a live claim holds; checked by claiming them. */
  async function checkClaimable(leads: number[]): Promise<void> {
    const held = new Set((await liveTokens()).values());
    const expected: number[] = [];
    for (const id of leads) {
      const c = (await request(t.http).get(`/v2/lead/callable/${id}/`).set('X-Api-Key', t.apiKey).expect(200)).body.data;
      if (c.callableNow && !held.has(id)) expected.push(id);
    }
    const probe = (await post('/v2/dialer/claim/', { dialerId: 'probe', limit: 500, orderIds: orders.map((o) => o.id) }, telephony).expect(200)).body.data
      .list as ClaimedLead[];
    expect(probe.map((l) => l.leadId).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
    // Given back at once: the probe changes nothing.
    if (probe.length) await post('/v2/dialer/release/', { claimTokens: probe.map((l) => l.claimToken) }, telephony).expect(200);
  }

  it('a claim hands out exactly the leads callable now that no live claim holds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        for (const o of orders) await post(`/v2/order/update/${o.id}/`, { autoDialingEnabled: true }).expect(200);
        // Fresh leads each run (the earlier runs' are answered, planned later or listed).
        await t.ds.query(`UPDATE lead SET planning_call_at = NULL, dial_after = NULL WHERE order_id = ANY($1)`, [orders.map((o) => o.id)]);
        const leads = [...(await createLeads(t, orders[0], LEADS / 2)), ...(await createLeads(t, orders[1], LEADS / 2))];
        const orderOf = (i: number) => orders[i < LEADS / 2 ? 0 : 1].id;
        const phones: string[] = await Promise.all(
          leads.map(async (id) => (await request(t.http).get(`/v2/lead/detail/${id}/`).set('X-Api-Key', t.apiKey).expect(200)).body.data.phone),
        );
        const tokens: { token: string; lead: number }[] = [];
        const tokenAt = (i: number) => tokens[i % Math.max(1, tokens.length)]?.token;
        for (const s of steps) {
          if (s.kind === 'claim') {
            const list = (
              await post('/v2/dialer/claim/', { dialerId: 'prop', limit: s.limit, orderIds: s.orders.map((i) => orders[i].id) }, telephony).expect(200)
            ).body.data.list as ClaimedLead[];
            expect(list.length).toBeLessThanOrEqual(s.limit);
            tokens.push(...list.map((l) => ({ token: l.claimToken, lead: l.leadId })));
          } else if (s.kind === 'release' && tokens.length) {
            const claimTokens = [...new Set(s.picks.map(tokenAt))] as string[];
            await post('/v2/dialer/release/', { claimTokens, retryAfterSeconds: s.retry ? 3600 : undefined }, telephony).expect(200);
          } else if (s.kind === 'expire' && tokens.length) {
            // Time passing, made in PostgreSQL: the lease moves into the past.
            await t.ds.query(`UPDATE dialer_claim SET lease_expires_at = now() - interval '1 second' WHERE claim_token = $1`, [tokenAt(s.pick)]);
          } else if (s.kind === 'confirm' && tokens.length) {
            const claimTokens = [...new Set(s.picks.map(tokenAt))] as string[];
            const live = await liveTokens();
            const answers = (await post('/v2/dialer/confirm/', { claimTokens }, telephony).expect(200)).body.data.list;
            for (const a of answers) if (!live.has(a.claimToken)) expect(a).toEqual({ claimToken: a.claimToken, dialable: false, reasons: ['claim_ended'] });
          } else if (s.kind === 'call') {
            const leadId = leads[s.lead];
            const own = tokens.filter((x) => x.lead === leadId).at(-1)?.token;
            const other = tokens.find((x) => x.lead !== leadId)?.token;
            const claimToken = s.token === 'own' ? own : s.token === 'other' ? other : undefined;
            const live = await liveTokens();
            const res = await post(
              '/v2/call/create/',
              {
                leadId,
                orderId: orderOf(s.lead),
                platformCallId: `dialer-prop-${process.pid}-${++calls}`,
                sipEndpointId: sip,
                statusId: statuses.get(s.outcome),
                direction: 'outgoing',
                totalDurationSeconds: 30,
                waitTimeDurationSeconds: 10,
                talkTimeDurationSeconds: s.outcome === 'answered' ? 20 : 0,
                claimToken,
              },
              telephony,
            );
            expect(res.status).toBe(claimToken === undefined || live.get(claimToken) === leadId ? 200 : 409);
          } else if (s.kind === 'dnc') {
            await post(`/v2/dnc/${s.add ? 'add' : 'remove'}/`, { phones: [phones[s.lead]] }).expect(200);
          } else if (s.kind === 'autodial') {
            await post(`/v2/order/update/${orders[s.order].id}/`, { autoDialingEnabled: s.on }).expect(200);
          }
          await checkClaimable(leads);
        }
        await post('/v2/dnc/remove/', { phones }).expect(200);
      }),
      { numRuns: 12 },
    );
  });
});
