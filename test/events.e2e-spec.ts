import { Client } from 'pg';
import request from 'supertest';
import { EventFeed } from '../src/modules/events/event-feed.service';
import { ANY_TIME, createLeadOrder, leadBody, testPhone, TestOrder } from './factories/leads';
import { createCallAttemptGroup, createSipEndpoint, createUser } from './factories/reference';
import { FeedEvent, feedHead, feedPage, followFeed } from './support/event-feed';
import { createTestApp, TestApp } from './support/test-app';

/** Every event type made by a real action through HTTP, and what the feed promises about them. */
describe('events: the feed', () => {
  let t: TestApp;
  let order: TestOrder;
  const post = (path: string, body: unknown) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', t.apiKey)
      .send(body as object);
  const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey);
  const detail = async (id: number) => (await get(`/v2/lead/detail/${id}/`).expect(200)).body.data;
  const ofLead = (id: number) => (e: FeedEvent) => e.data.lead?.id === id;

  /** Runs `action`, then reads the feed from where it was until `done` holds; returns what appeared. */
  async function eventsOf(action: () => Promise<unknown>, done: (events: FeedEvent[]) => boolean): Promise<FeedEvent[]> {
    const head = await feedHead(t);
    await action();
    return (await followFeed(t, head, done)).events;
  }

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    order = await createLeadOrder(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('v2 sync create: lead.created with the lead as detail shows it, no jobId (also with an Idempotency-Key)', async () => {
    let id = 0;
    let keyed = 0;
    const events = await eventsOf(
      async () => {
        id = (await post('/v2/lead/create/', leadBody(order, { name: 'Event Eve', customValues: {} })).expect(200)).body.data.id;
        keyed = (await post('/v2/lead/create/', leadBody(order)).set('Idempotency-Key', `ev-${Date.now()}`).expect(200)).body.data.id;
      },
      (es) => es.some(ofLead(keyed)),
    );
    const created = events.filter((e) => e.type === 'lead.created');
    expect(created.map((e) => e.data.lead.id)).toEqual([id, keyed]);
    expect(created[0]).toEqual({
      position: expect.any(Number),
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'lead.created',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
      data: { lead: await detail(id) },
    });
    expect(created[1].data).toEqual({ lead: await detail(keyed) });
  });

  it('v2 update: lead.updated with the changed v2 fields; an update that changes nothing presented is no event', async () => {
    const id = (await post('/v2/lead/create/', leadBody(order, { name: 'Before' })).expect(200)).body.data.id;
    const events = await eventsOf(
      async () => {
        await post(`/v2/lead/update/${id}/`, { name: 'Before' }).expect(200); // same value: no event
        await post(`/v2/lead/update/${id}/`, { name: 'After', priority: 7 }).expect(200);
      },
      (es) => es.some((e) => e.type === 'lead.updated' && ofLead(id)(e)),
    );
    const updates = events.filter((e) => e.type === 'lead.updated' && ofLead(id)(e));
    expect(updates).toHaveLength(1);
    expect(updates[0].data).toEqual({ lead: await detail(id), changed: ['name', 'priority'] });
  });

  it('v1 create and update: lead.created, then lead.updated naming statusId and planningCallDateTime', async () => {
    let id = 0;
    const events = await eventsOf(
      async () => {
        id = (await post('/v1/lead/create/', { lead_type: 'straight', client_phone: testPhone(), order_id: order.id, order_code: order.code }).expect(200)).body
          .data.id;
        await post(`/v1/lead/update/${id}/`, { status: 2, call_timestamp: 1893456000 }).expect(200);
      },
      (es) => es.some((e) => e.type === 'lead.updated' && ofLead(id)(e)),
    );
    const mine = events.filter(ofLead(id));
    expect(mine.map((e) => e.type)).toEqual(['lead.created', 'lead.updated']);
    expect(mine[1].data.changed).toEqual(['statusId', 'planningCallDateTime']);
    expect(mine[1].data.lead).toEqual(await detail(id));
    expect(mine[1].data.lead.planningCallDateTime).toBe('2030-01-01T00:00:00+00:00');
  });

  it('a duplicate: the new lead is created secondary; the previous one only gains a link, which is no event', async () => {
    const phone = testPhone();
    const first = (await post('/v2/lead/create/', leadBody(order, { phone })).expect(200)).body.data.id;
    let second = 0;
    const events = await eventsOf(
      async () => (second = (await post('/v2/lead/create/', leadBody(order, { phone })).expect(200)).body.data.id),
      (es) => es.some(ofLead(second)),
    );
    expect(events.filter(ofLead(first))).toEqual([]);
    expect(events.find(ofLead(second))!.data.lead).toMatchObject({ isSecondary: true });
  });

  it('v2 async: lead.created with jobId once the worker creates it; a failing job is lead.create_failed', async () => {
    let okJob = '';
    let badJob = '';
    const other = await createLeadOrder(t);
    const events = await eventsOf(
      async () => {
        okJob = (await post('/v2/lead/create-async/', leadBody(order, { name: 'Async' })).expect(200)).headers['x-job-id'];
        badJob = (await post('/v2/lead/create-async/', leadBody(order, { orderCode: other.code })).expect(200)).headers['x-job-id'];
      },
      (es) => es.some((e) => e.data.jobId === okJob) && es.some((e) => e.data.jobId === badJob),
    );
    const created = events.find((e) => e.data.jobId === okJob)!;
    expect(created.type).toBe('lead.created');
    const job = (await get(`/v2/lead/create-async/${okJob}/`).expect(200)).body.data;
    expect(created.data).toEqual({ lead: await detail(job.leadId), jobId: okJob });
    const failed = events.find((e) => e.data.jobId === badJob)!;
    const badState = (await get(`/v2/lead/create-async/${badJob}/`).expect(200)).body.data;
    expect(failed).toMatchObject({ type: 'lead.create_failed', data: { jobId: badJob, orderId: order.id, errors: badState.errors } });
    expect(badState.errors.map((e: { field: string }) => e.field)).toEqual(['orderCode']);
  });

  it('a recorded call: call.created with the Call object, and lead.updated when it moves planningCallDateTime', async () => {
    const sipId = await createSipEndpoint(t);
    const userId = await createUser(t, { accessGroup: 'call-center', name: 'Agent' });
    const group = await createCallAttemptGroup(t, { intervals: [5, 60] });
    const callOrder = (
      await post('/v2/order/create/', {
        serviceTitle: 'ev',
        title: 'Events calls',
        status: 'info',
        sipEndpointIds: [sipId],
        callAttemptGroupId: group,
        callSchedule: ANY_TIME,
      }).expect(200)
    ).body.data.id;
    const code = (await get(`/v2/order/detail/${callOrder}/`).expect(200)).body.data.code;
    const leadId = (await post('/v2/lead/create/', leadBody({ id: callOrder, code }, { utcOffset: 3 })).expect(200)).body.data.id;
    const noAnswer = (await t.ds.query(`SELECT id FROM call_status WHERE category = 'not-answered' AND NOT is_callback ORDER BY id LIMIT 1`))[0].id;
    let callId = 0;
    const events = await eventsOf(
      async () => {
        callId = (
          await post('/v2/call/create/', {
            platformCallId: `ev-${Date.now()}`,
            leadId,
            sipEndpointId: sipId,
            userId,
            statusId: noAnswer,
            direction: 'outgoing',
            totalDurationSeconds: 40,
            waitTimeDurationSeconds: 40,
            talkTimeDurationSeconds: 0,
          }).expect(200)
        ).body.data.id;
      },
      (es) => es.some((e) => e.type === 'call.created') && es.some((e) => e.type === 'lead.updated' && ofLead(leadId)(e)),
    );
    const call = events.find((e) => e.type === 'call.created')!;
    expect(call.data).toEqual({ call: (await get(`/v2/call/detail/${callId}/`).expect(200)).body.data, optOut: false });
    const moved = events.find((e) => e.type === 'lead.updated' && ofLead(leadId)(e))!;
    expect(moved.data.changed).toEqual(['planningCallDateTime']);
    expect(moved.data.lead).toEqual(await detail(leadId));
    // Same transaction: the call and its lead's new plan are next to each other, the call first.
    expect(moved.position).toBe(call.position + 1);
  });

  it('orders: order.created with the Order detail object; order.updated with changed; a no-op update is no event', async () => {
    const sipId = await createSipEndpoint(t);
    let id = 0;
    const events = await eventsOf(
      async () => {
        id = (await post('/v2/order/create/', { serviceTitle: 'ev', title: 'Events order', status: 'info', sipEndpointIds: [sipId] }).expect(200)).body.data.id;
        await post(`/v2/order/update/${id}/`, { title: 'Events order' }).expect(200);
        await post(`/v2/order/update/${id}/`, { title: 'Renamed order', callHolidayOverrides: ['01.01.2031'] }).expect(200);
      },
      (es) => es.some((e) => e.type === 'order.updated' && e.data.order.id === id),
    );
    const mine = events.filter((e) => e.data.order?.id === id);
    expect(mine.map((e) => e.type)).toEqual(['order.created', 'order.updated']);
    const now = (await get(`/v2/order/detail/${id}/`).expect(200)).body.data;
    expect(mine[0].data.order).toEqual({ ...now, title: 'Events order', callHolidayOverrides: [], updatedAt: expect.any(String) });
    expect(mine[1].data).toEqual({ order: now, changed: ['title', 'callHolidayOverrides'] });
  });

  it('a rolled-back change leaves no event; what commits after it appears', async () => {
    const id = (await post('/v2/lead/create/', leadBody(order)).expect(200)).body.data.id;
    const events = await eventsOf(
      async () => {
        await t.ds
          .transaction(async (m) => {
            await m.query(`UPDATE lead SET name = 'rolled back' WHERE id = $1`, [id]);
            throw new Error('abort');
          })
          .catch(() => undefined);
        await post(`/v2/lead/update/${id}/`, { name: 'committed' }).expect(200);
      },
      (es) => es.some((e) => e.data.lead?.name === 'committed'),
    );
    expect(events.filter(ofLead(id)).map((e) => e.data.lead.name)).toEqual(['committed']);
  });

  it('a transaction left open elsewhere (here one holding a transaction id) does not hold back events committed meanwhile', async () => {
    const other = new Client({ connectionString: t.databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT txid_current()');
      let id = 0;
      const events = await (async () => {
        const head = await feedHead(t);
        id = (await post('/v2/lead/create/', leadBody(order)).expect(200)).body.data.id;
        return (await followFeed(t, head, (es) => es.some(ofLead(id)), { timeoutMs: 3000 })).events;
      })();
      expect(events.filter(ofLead(id)).map((e) => e.type)).toEqual(['lead.created']);
    } finally {
      await other.query('ROLLBACK').catch(() => undefined);
      await other.end();
    }
  });

  it('filters by types and orderIds through their indexes; positions increase; ids are unique', async () => {
    const other = await createLeadOrder(t);
    const head = await feedHead(t);
    const a = (await post('/v2/lead/create/', leadBody(order)).expect(200)).body.data.id;
    const b = (await post('/v2/lead/create/', leadBody(other)).expect(200)).body.data.id;
    await post(`/v2/lead/update/${b}/`, { name: 'filtered' }).expect(200);
    const all = (await followFeed(t, head, (es) => es.some((e) => e.type === 'lead.updated' && ofLead(b)(e)))).events;
    expect(all.map((e) => [e.type, e.data.lead.id])).toEqual([
      ['lead.created', a],
      ['lead.created', b],
      ['lead.updated', b],
    ]);
    expect((await feedPage(t, { after: head, 'orderIds[]': [other.id] })).list.map((e) => e.id)).toEqual([all[1].id, all[2].id]);
    expect((await feedPage(t, { after: head, orderIds: `${order.id},${other.id}`, 'types[]': ['lead.updated'] })).list.map((e) => e.id)).toEqual([all[2].id]);
    expect((await feedPage(t, { after: head, types: 'lead.created,call.created', limit: 1 })).list.map((e) => e.id)).toEqual([all[0].id]);

    const everything = (await followFeed(t, 0, () => false, { timeoutMs: 0 })).events;
    const positions = everything.map((e) => e.position);
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    expect(new Set(positions).size).toBe(positions.length);
    expect(new Set(everything.map((e) => e.id)).size).toBe(everything.length);
    // An empty page keeps `after`.
    const end = await feedHead(t);
    expect(await feedPage(t, { after: end })).toEqual({ list: [], next: end });
  });

  it('refuses a bad limit, after, type or order id with 400', async () => {
    for (const query of [
      { limit: 0 },
      { limit: 1001 },
      { limit: 'x' },
      { after: -1 },
      { after: '1.5' },
      { 'types[]': ['lead.deleted'] },
      { 'orderIds[]': ['x'] },
      { 'orderIds[]': [0] },
    ]) {
      const res = await get('/v2/event/').query(query).expect(400);
      expect(res.body.success).toBe(false);
      expect(res.body.data.errors.length).toBeGreaterThan(0);
    }
    expect((await feedPage(t, { limit: 1000 })).list.length).toBeLessThanOrEqual(1000);
  });

  it('needs a key with the api scope', async () => {
    await request(t.http).get('/v2/event/').expect(401);
    const telephonyOnly = await t.keyWith('telephony');
    await request(t.http).get('/v2/event/').set('X-Api-Key', telephonyOnly).expect(403);
  });

  it('retention: events older than EVENT_RETENTION_DAYS are deleted; an after before them is a 410, after=0 reads what is left', async () => {
    await post('/v2/lead/create/', leadBody(order)).expect(200);
    const end = await feedHead(t);
    // Everything up to the head is 40 days old; one newer event stays.
    await t.ds.query(`UPDATE event SET created_at = now() - interval '40 days' WHERE position <= $1`, [end]);
    const keptId = (await post('/v2/lead/create/', leadBody(order)).expect(200)).body.data.id;
    await followFeed(t, end, (es) => es.some(ofLead(keptId)));
    expect(await t.app.get(EventFeed).prune()).toBeGreaterThan(0);

    const gone = await get('/v2/event/').query({ after: 1 }).expect(410);
    expect(gone.body).toEqual({ success: false, message: expect.stringContaining('retention'), data: [] });
    const fromStart = await feedPage(t, { after: 0 });
    expect(fromStart.list.map((e) => e.data.lead?.id)).toEqual([keptId]);
    expect(fromStart.list[0].position).toBe(end + 1);
    // A reader that had read everything before the cut continues without a gap.
    expect((await feedPage(t, { after: end })).list.map((e) => e.position)).toEqual([end + 1]);
  });
});
