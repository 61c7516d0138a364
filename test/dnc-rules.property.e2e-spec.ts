import fc from 'fast-check';
import request from 'supertest';
import { callStatusId, recordCall } from './factories/calls';
import { assignOrderToClient, insertClient } from './factories/clients';
import { createLeadOrder, leadBody, testPhone, type TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

type List = { scope: 'global' } | { scope: 'client' } | { scope: 'order'; order: number };
type Action =
  | { kind: 'create'; order: number; phone: number; consent: boolean }
  | { kind: 'add'; list: List; phone: number }
  | { kind: 'remove'; list: List; phone: number }
  | { kind: 'expire'; list: List; phone: number }
  | { kind: 'call'; lead: number; optOut: boolean }
  | { kind: 'consent'; lead: number; given: boolean }
  | { kind: 'requireConsent'; order: number; required: boolean };

const PHONES = 2;
const list = fc.oneof(
  fc.constant<List>({ scope: 'global' }),
  fc.constant<List>({ scope: 'client' }),
  fc.nat(2).map<List>((order) => ({ scope: 'order', order })),
);
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), order: fc.nat(2), phone: fc.nat(PHONES - 1), consent: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('add' as const), list, phone: fc.nat(PHONES - 1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), list, phone: fc.nat(PHONES - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('expire' as const), list, phone: fc.nat(PHONES - 1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('call' as const), lead: fc.nat(20), optOut: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('consent' as const), lead: fc.nat(20), given: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('requireConsent' as const), order: fc.nat(2), required: fc.boolean() }) },
);

/**
 * Random sequences of leads, list entries, removals, expiries, calls (some opting out) and consent changes, checked after every
 * step against a model of the rules: a lead is planned exactly when no active entry covers it and its order's consent rule holds.
 */
describe('do-not-call and consent rules (property)', () => {
  let t: TestApp;
  let orders: TestOrder[];
  let client: number;
  let notAnswered: number;
  let calls = 0;
  const post = (path: string, body: object) => request(t.http).post(path).set('X-Api-Key', t.apiKey).send(body);

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0', DNC_EXPIRY_SWEEP_MS: '100' });
    client = await insertClient(t);
    orders = [await createLeadOrder(t), await createLeadOrder(t), await createLeadOrder(t)];
    // Orders 0 and 1 belong to the client, order 2 to the call center; a redial ladder keeps unanswered leads planned.
    await assignOrderToClient(t, orders[0].id, client);
    await assignOrderToClient(t, orders[1].id, client);
    const [group] = await t.ds.query(`INSERT INTO call_attempt_group (title, intervals, repeat_last_interval) VALUES ('prop', '{10}', true) RETURNING id`);
    for (const o of orders) await post(`/v2/order/update/${o.id}/`, { autoDialingEnabled: true, callAttemptGroupId: group.id }).expect(200);
    notAnswered = await callStatusId(t, 'not-answered');
  });
  afterAll(async () => {
    await t.close();
  });

  it('no lead is planned or callable while a rule blocks it, and every lead nothing blocks is planned', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), fc.array(action, { minLength: 1, maxLength: 16 }), async (consents, steps) => {
        // Every run starts with a lead of each number in each order (random consent), so every list change meets leads.
        const actions: Action[] = [...consents.map((consent, i) => ({ kind: 'create' as const, order: i % 3, phone: Math.floor(i / 3), consent })), ...steps];
        const phones = Array.from({ length: PHONES }, () => testPhone());
        const entries = new Set<string>();
        const required = [false, false, false];
        const leads: { id: number; order: number; phone: number; consent: boolean }[] = [];
        for (const o of orders) await post(`/v2/order/update/${o.id}/`, { consentRequired: false }).expect(200);

        const key = (l: List, phone: number) => `${l.scope}:${l.scope === 'order' ? l.order : ''}:${phone}`;
        const body = (l: List, phone: number) => ({
          phones: [phones[phone]],
          ...(l.scope === 'client' ? { clientId: client } : l.scope === 'order' ? { orderId: orders[l.order].id } : {}),
        });
        const blockedByList = (lead: (typeof leads)[number]) =>
          entries.has(key({ scope: 'global' }, lead.phone)) ||
          (lead.order < 2 && entries.has(key({ scope: 'client' }, lead.phone))) ||
          entries.has(key({ scope: 'order', order: lead.order }, lead.phone));

        for (const a of actions) {
          let waitForSweep = false;
          if (a.kind === 'create') {
            const consent = a.consent ? { consent: { givenAt: new Date(Date.now() - 60_000).toISOString(), source: 'web_form' } } : {};
            const id = (await post('/v2/lead/create/', leadBody(orders[a.order], { phone: phones[a.phone], ...consent })).expect(200)).body.data.id as number;
            leads.push({ id, order: a.order, phone: a.phone, consent: a.consent });
          } else if (a.kind === 'add') {
            await post('/v2/dnc/add/', body(a.list, a.phone)).expect(200);
            entries.add(key(a.list, a.phone));
          } else if (a.kind === 'remove') {
            await post('/v2/dnc/remove/', body(a.list, a.phone)).expect(200);
            entries.delete(key(a.list, a.phone));
          } else if (a.kind === 'expire') {
            // Time passing, made in PostgreSQL: the entry's expiry moves into the past; the sweep applies it.
            const l = a.list;
            const owner = l.scope === 'client' ? client : l.scope === 'order' ? orders[l.order].id : 0;
            const n = await t.ds.query(
              `UPDATE dnc_entry SET expires_at = now() - interval '1 second' WHERE phone = $1 AND scope = $2 AND coalesce(order_id, client_id, 0) = $3 RETURNING 1`,
              [phones[a.phone], l.scope, owner],
            );
            waitForSweep = n.length > 0;
            entries.delete(key(l, a.phone));
          } else if (a.kind === 'call' && leads.length > 0) {
            const lead = leads[a.lead % leads.length];
            await recordCall(t, {
              leadId: lead.id,
              orderId: orders[lead.order].id,
              platformCallId: `prop-${process.pid}-${++calls}`,
              statusId: notAnswered,
              totalDurationSeconds: 5,
              waitTimeDurationSeconds: 5,
              talkTimeDurationSeconds: 0,
              startedAt: new Date(Date.now() - 10 * 60_000),
              optOut: a.optOut,
            });
            if (a.optOut) entries.add(key(lead.order < 2 ? { scope: 'client' } : { scope: 'global' }, lead.phone));
          } else if (a.kind === 'consent' && leads.length > 0) {
            const lead = leads[a.lead % leads.length];
            const consent = a.given ? { givenAt: new Date(Date.now() - 1000).toISOString(), source: 'sms' } : null;
            await post(`/v2/lead/update/${lead.id}/`, { consent }).expect(200);
            lead.consent = a.given;
          } else if (a.kind === 'requireConsent') {
            await post(`/v2/order/update/${orders[a.order].id}/`, { consentRequired: a.required }).expect(200);
            required[a.order] = a.required;
          }

          const expected = leads.map((l) => !blockedByList(l) && !(required[l.order] && !l.consent));
          const observe = async () => {
            const rows: { id: number; p: boolean }[] = await t.ds.query(`SELECT id, planning_call_at IS NOT NULL AS p FROM lead WHERE id = ANY($1::int[])`, [
              leads.map((l) => l.id),
            ]);
            const byId = new Map(rows.map((r) => [r.id, r.p]));
            return leads.map((l) => byId.get(l.id));
          };
          let seen = await observe();
          // An expiry reaches planningCallDateTime with the sweep (100 ms here); nothing else may lag.
          for (let i = 0; waitForSweep && i < 50 && JSON.stringify(seen) !== JSON.stringify(expected); i++) {
            await new Promise((r) => setTimeout(r, 100));
            seen = await observe();
          }
          expect({ step: a, planned: seen }).toEqual({ step: a, planned: expected });
          for (const [i, l] of leads.entries()) {
            if (expected[i]) continue;
            const c = (await request(t.http).get(`/v2/lead/callable/${l.id}/`).set('X-Api-Key', t.apiKey).expect(200)).body.data;
            expect(c.callableNow).toBe(false);
            expect(c.reasons).toEqual(expect.arrayContaining([blockedByList(l) ? 'dnc' : 'no_consent']));
            expect((await request(t.http).get(`/v2/lead/detail/${l.id}/`).set('X-Api-Key', t.apiKey).expect(200)).body.data.planningCallDateTime).toBe('');
          }
        }
      }),
      { numRuns: 25 },
    );
  }, 240_000);
});
