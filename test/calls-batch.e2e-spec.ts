import request from 'supertest';
import { createDialingOrder, createLeads } from './factories/dialer';
import type { TestOrder } from './factories/leads';
import { createSipEndpoint, createUser } from './factories/reference';
import { callStatusKinds } from './factories/calls';
import { createTestApp, TestApp } from './support/test-app';

/** POST /v2/call/create-batch/: the same outcome as recording each call alone, per-item failures, whole-request refusals. */
describe('calls recorded in a batch', () => {
  let t: TestApp;
  let telephony: string;
  let userId: number;
  let sipId: number;
  let status: Record<'answered' | 'noAnswer' | 'failed' | 'callback', number>;
  let seq = 0;

  const post = (path: string, body: unknown, key = telephony) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', key)
      .send(body as object);
  const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
  const call = (leadId: number, extra: Record<string, unknown> = {}) => ({
    platformCallId: `batch-${process.pid}-${++seq}`,
    leadId,
    sipEndpointId: sipId,
    userId,
    statusId: status.noAnswer,
    direction: 'outgoing',
    totalDurationSeconds: 30,
    waitTimeDurationSeconds: 30,
    talkTimeDurationSeconds: 0,
    startedAt: minutesAgo(10),
    ...extra,
  });
  const claim = async (order: TestOrder, limit: number) =>
    (await post('/v2/dialer/claim/', { dialerId: 'batch-test', limit, orderIds: [order.id] }).expect(200)).body.data.list as {
      leadId: number;
      claimToken: string;
    }[];
  const leadState = async (ids: number[]) =>
    t.ds.query<{ id: number; attempts: number; dialAfter: Date | null; stop: string | null; at: Date | null; hold: string[] | null; cap: Date | null }[]>(
      `SELECT id, attempt_count AS attempts, dial_after AS "dialAfter", dial_stop AS stop, planning_call_at AS at, dialing_hold AS hold,
              daily_cap_until AS cap
         FROM lead WHERE id = ANY($1::int[]) ORDER BY array_position($1::int[], id)`,
      [ids],
    );
  const callCount = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM call`))[0].n as number;

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    telephony = await t.keyWith('telephony');
    userId = await createUser(t, { accessGroup: 'call-center', name: 'Batch agent' });
    sipId = await createSipEndpoint(t);
    status = await callStatusKinds(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('leaves leads, calls, claims and events exactly as the same calls recorded one by one', async () => {
    const [alone, together] = [await createDialingOrder(t), await createDialingOrder(t)];
    // No answer redials after 5 minutes, twice at most: the first lead's two calls reach the cap.
    for (const o of [alone, together]) {
      await post(`/v2/order/update/${o.id}/`, { redialRules: [{ statusId: status.noAnswer, afterMinutes: 5, maxAttempts: 2 }] }, t.apiKey).expect(200);
    }
    const [aloneIds, togetherIds] = [await createLeads(t, alone, 7), await createLeads(t, together, 7)];
    const [aloneClaims, togetherClaims] = [await claim(alone, 3), await claim(together, 3)];
    // Per lead index: what its calls are (the first lead gets two, the fifth opts out, the first three end their claim by token).
    const plan = (ids: number[], claims: { leadId: number; claimToken: string }[]) => [
      call(ids[0], { claimToken: claims.find((c) => c.leadId === ids[0])?.claimToken }),
      call(ids[1], {
        statusId: status.answered,
        waitTimeDurationSeconds: 10,
        talkTimeDurationSeconds: 20,
        claimToken: claims.find((c) => c.leadId === ids[1])?.claimToken,
      }),
      call(ids[2], { statusId: status.failed, claimToken: claims.find((c) => c.leadId === ids[2])?.claimToken }),
      call(ids[3], { statusId: status.callback }),
      call(ids[4], { optOut: true, clientPhone: undefined }),
      call(ids[5], { startedAt: minutesAgo(3 * 24 * 60) }),
      call(ids[0], { startedAt: minutesAgo(5) }),
    ];
    expect(aloneClaims.map((c) => c.leadId)).toEqual(aloneIds.slice(0, 3));
    for (const body of plan(aloneIds, aloneClaims)) {
      const one = await post('/v2/call/create/', body);
      expect([one.status, one.body.message]).toEqual([200, '']);
    }
    const res = await post('/v2/call/create-batch/', { calls: plan(togetherIds, togetherClaims) }).expect(200);
    expect(res.body.data).toMatchObject({ recorded: 7, failed: 0 });
    expect(res.body.data.results.map((r: { index: number; success: boolean }) => [r.index, r.success])).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => [i, true]));

    const [a, b] = [await leadState(aloneIds), await leadState(togetherIds)];
    const near = (x: Date | null, y: Date | null) => (x === null || y === null ? x === y : Math.abs(x.getTime() - y.getTime()) < 60_000);
    b.forEach((row, i) => {
      const other = a[i];
      expect({ attempts: row.attempts, stop: row.stop, hold: row.hold }).toEqual({ attempts: other.attempts, stop: other.stop, hold: other.hold });
      expect([near(row.dialAfter, other.dialAfter), near(row.at, other.at), near(row.cap, other.cap)]).toEqual([true, true, true]);
    });
    // The seventh lead had no call: untouched in both; the first stopped at its outcome cap.
    expect(b[6].attempts).toBe(0);
    expect(b[0]).toMatchObject({ attempts: 2, stop: 'outcome_attempts_exhausted', at: null });
    const claimsLeft = async (order: TestOrder) => (await t.ds.query(`SELECT lead_id FROM dialer_claim WHERE order_id = $1`, [order.id])).length;
    expect([await claimsLeft(alone), await claimsLeft(together)]).toEqual([0, 0]);
    const calls = (order: TestOrder) =>
      t.ds.query(`SELECT status_id, opt_out, callback_requested, total_duration_seconds FROM call WHERE order_id = $1 ORDER BY created_at, status_id`, [
        order.id,
      ]);
    expect(await calls(together)).toEqual(await calls(alone));
    const events = (order: TestOrder) => t.ds.query(`SELECT type, count(*)::int AS n FROM event WHERE order_id = $1 GROUP BY type ORDER BY type`, [order.id]);
    expect(await events(together)).toEqual(await events(alone));
  });

  it('a bad item fails alone with the errors of the single route; the others are recorded', async () => {
    const order = await createDialingOrder(t);
    const other = await createDialingOrder(t);
    const [lead, second, third] = await createLeads(t, order, 3);
    const [claimed] = await claim(order, 1);
    expect(claimed.leadId).toBe(lead);
    const good = call(second);
    const before = await callCount();
    const res = await post('/v2/call/create-batch/', {
      calls: [
        good,
        call(987_654_321),
        call(third, { orderId: other.id }),
        call(third, { sipEndpointId: 987_654 }),
        { ...call(third), platformCallId: undefined },
        call(lead, { claimToken: '00000000-0000-4000-8000-000000000000' }),
        'not a call',
        { ...good },
        call(third, { sipEndpointId: 987_654, statusId: 987_654 }),
      ],
    }).expect(200);
    const results = res.body.data.results as { index: number; success: boolean; id?: number; errors?: { field: string; message: string }[] }[];
    expect(results.map((r) => [r.index, r.success, r.errors?.map((e) => e.field)])).toEqual([
      [0, true, undefined],
      [1, false, ['leadId']],
      [2, false, ['orderId']],
      [3, false, ['sipEndpointId']],
      [4, false, ['platformCallId']],
      [5, false, ['claimToken']],
      [6, false, ['']],
      [7, true, undefined],
      [8, false, ['sipEndpointId', 'statusId']],
    ]);
    expect(results[1].errors![0].message).toBe('lead 987654321 does not exist');
    // The same platform call given twice is one call: the second answers with the first's id.
    expect(results[7].id).toBe(results[0].id);
    expect(res.body.data).toMatchObject({ recorded: 2, failed: 7 });
    expect(await callCount()).toBe(before + 1);
    // The refused token ended nothing: the claim is still live.
    expect((await t.ds.query(`SELECT claim_token FROM dialer_claim WHERE lead_id = $1`, [lead]))[0].claim_token).toBe(claimed.claimToken);
    // A batch delivered again stores nothing new and answers with the same ids.
    const again = await post('/v2/call/create-batch/', { calls: [good] }).expect(200);
    expect(again.body.data.results[0]).toEqual({ index: 0, success: true, id: results[0].id });
    expect(await callCount()).toBe(before + 1);
  });

  it('batches across orders beside do-not-call adds of their numbers all answer 200: no lock waits in a cycle', async () => {
    const orders = [await createDialingOrder(t), await createDialingOrder(t), await createDialingOrder(t)];
    const leads = (await Promise.all(orders.map((o) => createLeads(t, o, 24)))).flat();
    const phones: string[] = (await t.ds.query(`SELECT phone FROM lead WHERE id = ANY($1::int[]) ORDER BY id`, [leads])).map((r: { phone: string }) => r.phone);
    // Each batch takes every third lead, across all three orders, in an order of its own.
    const batches = [0, 1, 2].map((k) =>
      leads
        .filter((_, i) => i % 3 === k)
        .reverse()
        .map((id) => call(id)),
    );
    const adds = [0, 1, 2, 3].map((k) => post('/v2/dnc/add/', { phones: phones.filter((_, i) => i % 4 === k).slice(0, 6), reason: 'batch test' }, t.apiKey));
    const answers = await Promise.all([...batches.map((calls) => post('/v2/call/create-batch/', { calls })), ...adds]);
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    for (const r of answers.slice(0, 3)) expect(r.body.data.failed).toBe(0);
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM call WHERE lead_id = ANY($1::int[])`, [leads]))[0].n).toBe(leads.length);
  });

  it('refuses the whole request with 400 when calls is missing, empty, not an array or over 500 items, storing nothing; 403 without telephony', async () => {
    const order = await createDialingOrder(t);
    const [lead] = await createLeads(t, order, 1);
    const before = await callCount();
    for (const body of [{}, { calls: [] }, { calls: 'x' }, { calls: Array.from({ length: 501 }, () => call(lead)) }]) {
      const res = await post('/v2/call/create-batch/', body);
      expect([res.status, res.body.success]).toEqual([400, false]);
    }
    await post('/v2/call/create-batch/', { calls: [call(lead)] }, await t.keyWith('api')).expect(403);
    expect(await callCount()).toBe(before);
  });
});
