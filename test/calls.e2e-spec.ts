import request from 'supertest';
import { createCallAttemptGroup, createSipEndpoint, createUser } from './factories/reference';
import { callStatusKinds } from './factories/calls';
import { createTestApp, TestApp } from './support/test-app';

describe('calls: ingestion from telephony, redial planning, reading', () => {
  let t: TestApp;
  let telephonyKey: string;
  let userId: number;
  let sipId: number;
  let orderId: number;
  let status: Record<'answered' | 'noAnswer' | 'failed' | 'callback', number>;

  const leadRow = async (leadId: number) =>
    (await t.ds.query(`SELECT attempt_count AS "attempts", planning_call_at AS "at" FROM lead WHERE id = $1`, [leadId]))[0] as {
      attempts: number;
      at: Date | null;
    };
  /** The attempt count, the moment the ladder wants the redial, and whether a call is planned (never before now). */
  const redial = async (leadId: number) => {
    const [row] = await t.ds.query<{ attempts: number; wanted: Date | null; at: Date | null }[]>(
      `SELECT attempt_count AS "attempts", dial_after AS "wanted", planning_call_at AS "at" FROM lead WHERE id = $1`,
      [leadId],
    );
    if (row.at !== null) expect(row.at.getTime()).toBeGreaterThanOrEqual(Math.max(Date.now() - 60_000, row.wanted?.getTime() ?? 0));
    return { attempts: row.attempts, wanted: row.wanted, planned: row.at !== null };
  };
  const callCount = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM call`))[0].n as number;

  let phoneSeq = 0;
  const newLead = async (order = orderId): Promise<number> => {
    const code = (await t.ds.query(`SELECT code FROM call_order WHERE id = $1`, [order]))[0].code;
    phoneSeq += 1;
    const res = await request(t.http)
      .post('/v2/lead/create/')
      .set('X-Api-Key', t.apiKey)
      .send({
        leadType: 'straight',
        phone: `+7915${String(2_000_000 + phoneSeq)}`,
        orderId: order,
        orderCode: code,
        utcOffset: 3,
      });
    if (res.status !== 200) throw new Error(`lead create: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id;
  };

  let platformSeq = 0;
  const record = (body: Record<string, unknown>, key = telephonyKey) =>
    request(t.http)
      .post('/v2/call/create/')
      .set('X-Api-Key', key)
      .send({
        platformCallId: `pbx-${++platformSeq}`,
        sipEndpointId: sipId,
        userId,
        statusId: status.noAnswer,
        direction: 'outgoing',
        totalDurationSeconds: 40,
        waitTimeDurationSeconds: 40,
        talkTimeDurationSeconds: 0,
        startedAt: '2025-11-26T10:00:00Z',
        ...body,
      });

  beforeAll(async () => {
    t = await createTestApp();
    telephonyKey = await t.keyWith('telephony');
    userId = await createUser(t, { accessGroup: 'call-center', name: 'Анна' });
    sipId = await createSipEndpoint(t);
    const group = await createCallAttemptGroup(t, { intervals: [5, 60], resetAttemptsEnabled: true, repeatLastInterval: false });
    const order = await request(t.http)
      .post('/v2/order/create/')
      .set('X-Api-Key', t.apiKey)
      .send({
        serviceTitle: 'calls-test',
        title: 'Calls test',
        status: 'info',
        sipEndpointIds: [sipId],
        callAttemptGroupId: group,
      });
    if (order.status !== 200) throw new Error(JSON.stringify(order.body));
    orderId = order.body.data.id;
    status = await callStatusKinds(t);
    // This spec is about the attempt group's ladder: its no-answer status carries no redial rule of its own
    // (test/redial-by-outcome.e2e-spec.ts covers the rules).
    await request(t.http).post(`/v2/call-status/update/${status.noAnswer}/`).set('X-Api-Key', t.apiKey).send({ redial: {} }).expect(200);
  });
  afterAll(async () => {
    await t.close();
  });

  it('records a call and returns it with the exact Call fields', async () => {
    const leadId = await newLead();
    const res = await record({
      leadId,
      orderId,
      statusId: status.answered,
      finishInitiator: 'client',
      totalDurationSeconds: 95,
      waitTimeDurationSeconds: 12,
      talkTimeDurationSeconds: 80,
      hasRecords: true,
      isPredictive: true,
    }).expect(200);
    expect(res.body).toEqual({ success: true, message: '', data: { id: expect.any(Number) } });
    const detail = await request(t.http).get(`/v2/call/detail/${res.body.data.id}/`).set('X-Api-Key', t.apiKey).expect(200);
    expect(detail.body.data).toEqual({
      id: res.body.data.id,
      sipEndpointId: sipId,
      finishInitiator: 'client',
      direction: 'outgoing',
      leadId,
      userId,
      orderId,
      statusId: status.answered,
      totalDurationSeconds: 95,
      waitTimeDurationSeconds: 12,
      talkTimeDurationSeconds: 80,
      isPredictive: true,
      clientPhone: expect.stringMatching(/^7915\d{7}$/),
      hasRecords: true,
      createdAt: '2025-11-26T10:00:00+00:00',
    });
    // The client was reached: one attempt, dialing stops.
    expect(await leadRow(leadId)).toEqual({ attempts: 1, at: null });
  });

  it('stores a call delivered twice once, and counts the attempt once', async () => {
    const leadId = await newLead();
    const before = await callCount();
    const body = { leadId, platformCallId: 'pbx-retried-1' };
    const a = await record(body).expect(200);
    const b = await record(body).expect(200);
    expect(b.body.data.id).toBe(a.body.data.id);
    expect(await callCount()).toBe(before + 1);
    expect((await leadRow(leadId)).attempts).toBe(1);
    const parallel = await Promise.all(Array.from({ length: 5 }, () => record({ leadId, platformCallId: 'pbx-retried-2' })));
    expect(new Set(parallel.map((r) => r.body.data.id)).size).toBe(1);
    expect((await leadRow(leadId)).attempts).toBe(2);
  });

  it('plans the next call after each attempt from the attempt group intervals, then stops', async () => {
    const leadId = await newLead();
    // Ends 10:00:40; first interval 5 min.
    await record({ leadId, startedAt: '2025-11-26T10:00:00Z' }).expect(200);
    expect(await redial(leadId)).toEqual({ attempts: 1, wanted: new Date('2025-11-26T10:05:40Z'), planned: true });
    await record({ leadId, startedAt: '2025-11-26T10:10:00Z', statusId: status.failed }).expect(200);
    expect(await redial(leadId)).toEqual({ attempts: 2, wanted: new Date('2025-11-26T11:10:40Z'), planned: true });
    await record({ leadId, startedAt: '2025-11-26T11:15:00Z' }).expect(200);
    expect(await redial(leadId)).toEqual({ attempts: 3, wanted: null, planned: false });
  });

  it('resets the attempts when the client asks to be called back and the group allows it', async () => {
    const leadId = await newLead();
    await record({ leadId }).expect(200);
    await record({ leadId }).expect(200);
    await record({ leadId, statusId: status.callback, startedAt: '2025-11-26T12:00:00Z' }).expect(200);
    expect(await redial(leadId)).toEqual({ attempts: 0, wanted: new Date('2025-11-26T12:05:40Z'), planned: true });
  });

  it('moves the next call into the order call window in the lead time zone', async () => {
    // Every day, one hour that opens three hours from now in the lead's local time (UTC+3).
    const now = new Date();
    const opens = (now.getUTCHours() + 3 + 3) % 24;
    const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
    const day = [hh(opens), opens === 23 ? '24:00' : hh(opens + 1)] as [string, string];
    await request(t.http)
      .post(`/v2/order/update/${orderId}/`)
      .set('X-Api-Key', t.apiKey)
      .send({ callSchedule: Array.from({ length: 7 }, () => day) })
      .expect(200);
    const leadId = await newLead();
    // The call ended a minute ago; its redial, wanted 5 min later, waits for the window's opening, 06:00 UTC the next time.
    await record({ leadId, startedAt: new Date(now.getTime() - 100_000).toISOString() }).expect(200);
    let expected = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), (opens + 21) % 24);
    if (expected <= now.getTime()) expected += 86_400_000;
    expect(await leadRow(leadId)).toEqual({ attempts: 1, at: new Date(expected) });
    await request(t.http).post(`/v2/order/update/${orderId}/`).set('X-Api-Key', t.apiKey).send({ callSchedule: [] }).expect(200);
  });

  it('rejects inconsistent or unknown input with 400, storing nothing', async () => {
    const leadId = await newLead();
    const before = await callCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ leadId, totalDurationSeconds: 10, waitTimeDurationSeconds: 8, talkTimeDurationSeconds: 5 }, 'totalDurationSeconds'],
      [{ leadId, waitTimeDurationSeconds: -1 }, 'waitTimeDurationSeconds'],
      [{ leadId, totalDurationSeconds: 1.5 }, 'totalDurationSeconds'],
      [{ leadId: 2147483000 }, 'leadId'],
      [{ leadId, orderId: orderId + 1000 }, 'orderId'],
      [{ leadId, statusId: 999 }, 'statusId'],
      [{ leadId, sipEndpointId: 999 }, 'sipEndpointId'],
      [{ leadId, userId: 999 }, 'userId'],
      [{ leadId, direction: 'sideways' }, 'direction'],
      [{ leadId, finishInitiator: 'robot' }, 'finishInitiator'],
      [{ leadId, platformCallId: '' }, 'platformCallId'],
      [{ leadId, startedAt: 'yesterday' }, 'startedAt'],
      [{ leadId, startedAt: '2030-11-21T00:00:00Z' }, 'startedAt'],
      [{ leadId, startedAt: '0000-01-01T00:00:00Z' }, 'startedAt'],
      [{ leadId, startedAt: '-271821-04-20T00:00:00Z' }, 'startedAt'],
      [{ leadId: '5' }, 'leadId'],
    ];
    for (const [body, field] of cases) {
      const res = await record(body).expect(400);
      expect(res.body.success).toBe(false);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    // The call's foreign keys refuse it; the answer names every reference missing, not only the first one checked.
    const both = await record({ leadId, sipEndpointId: 999, userId: 999 }).expect(400);
    expect(both.body.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(['sipEndpointId', 'userId']);
    expect(await callCount()).toBe(before);
    expect((await leadRow(leadId)).attempts).toBe(0);
  });

  it('needs the telephony scope to record', async () => {
    const apiOnly = await t.keyWith('api');
    const leadId = await newLead();
    await record({ leadId }, apiOnly).expect(403);
  });

  describe('GET /v2/call/', () => {
    let leadA: number;
    let leadB: number;
    let otherOrder: number;
    beforeAll(async () => {
      const order = await request(t.http)
        .post('/v2/order/create/')
        .set('X-Api-Key', t.apiKey)
        .send({ serviceTitle: 'calls-list', title: 'Calls list', status: 'success', sipEndpointIds: [sipId] });
      otherOrder = order.body.data.id;
      leadA = await newLead(otherOrder);
      leadB = await newLead(otherOrder);
      for (let i = 0; i < 5; i++) await record({ leadId: leadA, startedAt: `2026-11-0${i + 1}T10:00:00Z` }).expect(200);
      for (let i = 0; i < 3; i++) await record({ leadId: leadB, statusId: status.failed, startedAt: `2026-11-1${i}T10:00:00Z` }).expect(200);
    });

    const list = (query: string) => request(t.http).get(`/v2/call/?${query}`).set('X-Api-Key', t.apiKey);

    it('requires leadIds or orderIds', async () => {
      const res = await list('limit=10').expect(400);
      expect(res.body.data.errors[0].field).toBe('leadIds');
    });

    it('filters by order, lead (all array forms), user, status and period', async () => {
      expect((await list(`orderIds[]=${otherOrder}`).expect(200)).body.data.total).toBe(8);
      expect((await list(`leadIds[]=${leadA}&leadIds[]=${leadB}`).expect(200)).body.data.total).toBe(8);
      expect((await list(`leadIds=${leadA},${leadB}`).expect(200)).body.data.total).toBe(8);
      expect((await list(`leadIds=${leadA}&leadIds=${leadB}`).expect(200)).body.data.total).toBe(8);
      expect((await list(`orderIds=${otherOrder}&statusIds[]=${status.failed}`).expect(200)).body.data.total).toBe(3);
      expect((await list(`orderIds=${otherOrder}&userIds[]=${userId}`).expect(200)).body.data.total).toBe(8);
      const period = await list(`orderIds=${otherOrder}&createdAt[0]=2026-11-02T00:00:00Z&createdAt[1]=2026-11-10T10:00:00Z`).expect(200);
      expect(period.body.data.total).toBe(5);
      const endOnly = await list(`orderIds=${otherOrder}&createdAt[1]=2026-11-02T10:00:00Z`).expect(200);
      expect(endOnly.body.data.total).toBe(2);
    });

    it('walks pages with next and total, ordered by id', async () => {
      const seen: number[] = [];
      let offset = 0;
      for (;;) {
        const res = await list(`orderIds=${otherOrder}&limit=3&offset=${offset}`).expect(200);
        const { list: items, next, total } = res.body.data;
        expect(total).toBe(8);
        seen.push(...items.map((c: { id: number }) => c.id));
        expect(next).toBe(offset + items.length);
        if (items.length === 0) break;
        offset = next;
      }
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(seen).toHaveLength(8);
    });

    it('rejects bad filters and limits with 400', async () => {
      for (const q of [
        `orderIds=0`,
        `orderIds=abc`,
        `leadIds[]=-1`,
        `orderIds=${otherOrder}&limit=101`,
        `orderIds=${otherOrder}&offset=-1`,
        `orderIds=${otherOrder}&createdAt[0]=nope`,
        `orderIds=${otherOrder}&userIds=-1`,
      ]) {
        const res = await list(q).expect(400);
        expect(res.body.success).toBe(false);
      }
    });
  });

  describe('userIds=0: the calls no agent processed (shown with userId 0)', () => {
    let order: number;
    let lead: number;
    let withoutAgent: number;
    let withAgent: number;
    beforeAll(async () => {
      const res = await request(t.http)
        .post('/v2/order/create/')
        .set('X-Api-Key', t.apiKey)
        .send({ serviceTitle: 'calls-no-agent', title: 'Calls without agent', status: 'info', sipEndpointIds: [sipId] });
      order = res.body.data.id;
      lead = await newLead(order);
      withoutAgent = (await record({ leadId: lead, userId: null, startedAt: '2026-11-01T10:00:00Z' }).expect(200)).body.data.id;
      withAgent = (await record({ leadId: lead, startedAt: '2026-11-02T10:00:00Z' }).expect(200)).body.data.id;
    });
    const list = (query: string) => request(t.http).get(`/v2/call/?${query}`).set('X-Api-Key', t.apiKey).expect(200);
    const ids = (body: { data: { list: { id: number }[] } }) => body.data.list.map((c) => c.id);

    it('lists a call with no agent by userIds=0, by order and by lead', async () => {
      for (const filter of [`orderIds=${order}`, `leadIds=${lead}`]) {
        const { body } = await list(`${filter}&userIds=0`);
        expect(ids(body)).toEqual([withoutAgent]);
        expect(body.data.total).toBe(1);
        expect(body.data.list[0].userId).toBe(0);
      }
    });

    it('lists the calls of no agent and of the agents given by userIds=0,<id>, in both array forms', async () => {
      for (const users of [`userIds=0,${userId}`, `userIds[]=${userId}&userIds[]=0`]) {
        const { body } = await list(`orderIds=${order}&${users}`);
        expect(ids(body)).toEqual([withoutAgent, withAgent]);
        expect(body.data.total).toBe(2);
      }
      const { body } = await list(`orderIds=${order}&userIds=0,${userId}&limit=1&offset=1`);
      expect(ids(body)).toEqual([withAgent]);
      expect(body.data.total).toBe(2);
    });

    it('still refuses a negative user id with 400', async () => {
      const res = await request(t.http).get(`/v2/call/?orderIds=${order}&userIds=0,-1`).set('X-Api-Key', t.apiKey).expect(400);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain('userIds');
    });
  });

  it('filters createdAt inclusively at the precision it is shown: the shown value as both bounds finds the call', async () => {
    const leadId = await newLead();
    // A fractional start: stored and shown to the second (truncated, never rounded), and filtered as shown.
    const res = await record({ leadId, startedAt: '2025-11-26T16:20:30.700Z' }).expect(200);
    const call = (await request(t.http).get(`/v2/call/detail/${res.body.data.id}/`).set('X-Api-Key', t.apiKey).expect(200)).body.data;
    expect(call.createdAt).toMatch(/^2025-11-26T16:20:30\+00:00$/);
    const at = encodeURIComponent(call.createdAt);
    const list = await request(t.http).get(`/v2/call/?leadIds=${leadId}&createdAt[0]=${at}&createdAt[1]=${at}`).set('X-Api-Key', t.apiKey).expect(200);
    expect(list.body.data.list.map((c: { id: number }) => c.id)).toEqual([res.body.data.id]);
    expect(list.body.data.total).toBe(1);
  });

  it('answers 404 for an unknown call and 400 for a bad id', async () => {
    await request(t.http).get('/v2/call/detail/2147483647/').set('X-Api-Key', t.apiKey).expect(404);
    await request(t.http).get('/v2/call/detail/abc/').set('X-Api-Key', t.apiKey).expect(400);
  });
});
