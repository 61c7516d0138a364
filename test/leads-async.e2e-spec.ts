import { Logger } from '@nestjs/common';
import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { LEAD_CREATE_RETRY_LIMIT, LeadCreateJobsService } from '../src/modules/leads/lead-create-jobs.service';
import { createLeadOrder, leadBody, testPhone, TestOrder } from './factories/leads';
import { failInserts } from './support/db-faults';
import { createTestApp, TestApp } from './support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function waitForJob(t: TestApp, jobId: string, timeoutMs = 15_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(t.http).get(`/v2/lead/create-async/${jobId}/`).set('X-Api-Key', t.apiKey).expect(200);
    if (res.body.data.status !== 'queued' || Date.now() > deadline) return res.body.data;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('asynchronous lead creation', () => {
  let t: TestApp;
  let order: TestOrder;
  const post = (path: string, body: unknown) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', t.apiKey)
      .send(body as object);
  const jobRows = async (id: string) => (await t.ds.query(`SELECT count(*)::int AS n FROM lead_async_job WHERE id = $1`, [id]))[0].n as number;
  const leadsOfJob = (id: string) => t.ds.query<{ id: number }[]>(`SELECT id FROM lead WHERE job_id = $1`, [id]);

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    order = await createLeadOrder(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('accepts with data [] and X-Job-Id; the worker creates the lead and the job reports done with its id', async () => {
    const body = leadBody(order, { name: 'Async Anna' });
    const res = await post('/v2/lead/create-async/', body).expect(200);
    expect(res.body).toEqual({ success: true, message: '', data: [] });
    const jobId = res.headers['x-job-id'];
    expect(jobId).toMatch(UUID);
    // Durable before the answer: the job row and the queue entry exist.
    expect(await jobRows(jobId)).toBe(1);
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE id = $1`, [jobId]))[0].n).toBe(1);

    const job = await waitForJob(t, jobId);
    expect(job).toEqual({
      jobId,
      status: 'done',
      leadId: expect.any(Number),
      errors: [],
      createdAt: expect.stringMatching(/\+00:00$/),
      finishedAt: expect.stringMatching(/\+00:00$/),
    });
    const lead = (
      await request(t.http)
        .get(`/v2/lead/detail/${Number(job.leadId)}/`)
        .set('X-Api-Key', t.apiKey)
        .expect(200)
    ).body.data;
    expect(lead).toMatchObject({ name: 'Async Anna', phone: body.phone, orderId: order.id, orderCode: order.code });
  });

  it('applies the synchronous rules in the worker: a failing lead reports failed with errors', async () => {
    const other = await createLeadOrder(t);
    const res = await post('/v2/lead/create-async', leadBody(order, { orderCode: other.code, phone: '+70001234567' })).expect(200);
    const job = await waitForJob(t, res.headers['x-job-id']);
    expect(job).toMatchObject({ status: 'failed', leadId: null, finishedAt: expect.any(String) });
    expect((job.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(['orderCode', 'phone']);
    expect(await leadsOfJob(res.headers['x-job-id'])).toEqual([]);
  });

  it('rejects a malformed body at once with 400 and queues nothing', async () => {
    const before = (await t.ds.query(`SELECT count(*)::int AS n FROM lead_async_job`))[0].n;
    const res = await post('/v2/lead/create-async/', { leadType: 'straight', orderId: '1', orderCode: order.code }).expect(400);
    expect(res.headers['x-job-id']).toBeUndefined();
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['phone', 'orderId']));
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM lead_async_job`))[0].n).toBe(before);
  });

  it('answers 400 for a job id that is not a uuid and 404 for an unknown one', async () => {
    const bad = await request(t.http).get('/v2/lead/create-async/123/').set('X-Api-Key', t.apiKey).expect(400);
    expect(bad.body.data.errors[0].field).toBe('jobId');
    await request(t.http).get(`/v2/lead/create-async/${randomUUID()}`).set('X-Api-Key', t.apiKey).expect(404);
  });

  it('a retried job never creates a second lead', async () => {
    const res = await post('/v2/lead/create-async/', leadBody(order)).expect(200);
    const jobId = res.headers['x-job-id'];
    const job = await waitForJob(t, jobId);
    expect(job.status).toBe('done');
    const service = t.app.get(LeadCreateJobsService);

    // Delivered again after it finished: nothing to do.
    await service.processCreateJob(jobId, 1);
    // Worst case: the lead committed but the job state was lost (as if the worker died before acknowledging).
    await t.ds.query(`UPDATE lead_async_job SET state = 'queued', lead_id = NULL, finished_at = NULL WHERE id = $1`, [jobId]);
    await service.processCreateJob(jobId, 2);
    expect(await leadsOfJob(jobId)).toEqual([{ id: job.leadId }]);
    expect((await waitForJob(t, jobId)).leadId).toBe(job.leadId);

    // The same job handled twice at once (a double delivery): one lead.
    const twin = randomUUID();
    await t.ds.query(`INSERT INTO lead_async_job (id, order_id, payload) VALUES ($1, $2, $3)`, [twin, order.id, JSON.stringify(leadBody(order))]);
    await Promise.all([service.processCreateJob(twin), service.processCreateJob(twin), service.processCreateJob(twin)]);
    const made = await leadsOfJob(twin);
    expect(made).toHaveLength(1);
    expect(await waitForJob(t, twin)).toMatchObject({ status: 'done', leadId: made[0].id });
  });

  it('retries a transient failure and marks the job failed after the last attempt', async () => {
    // The lead's insert fails once in PostgreSQL, as a serialization failure does.
    const transient = { sqlstate: '40001', message: 'could not serialize access due to concurrent update' };
    const once = await failInserts(t.ds, 'lead', 1, transient);
    try {
      const res = await post('/v2/lead/create-async/', leadBody(order)).expect(200);
      const job = await waitForJob(t, res.headers['x-job-id']);
      expect(job).toMatchObject({ status: 'done', leadId: expect.any(Number) });
      expect(await once.attempts()).toBe(2);
    } finally {
      await once.remove();
    }

    const last = randomUUID();
    await t.ds.query(`INSERT INTO lead_async_job (id, order_id, payload) VALUES ($1, $2, $3)`, [last, order.id, JSON.stringify(leadBody(order))]);
    const onLastAttempt = await failInserts(t.ds, 'lead', 1, transient);
    // The given-up job is logged as an error: captured here (and checked), not printed.
    const logged: string[] = [];
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation((m: unknown) => void logged.push(String(m)));
    try {
      await t.app.get(LeadCreateJobsService).processCreateJob(last, LEAD_CREATE_RETRY_LIMIT);
      expect(await onLastAttempt.attempts()).toBe(1);
    } finally {
      errors.mockRestore();
      await onLastAttempt.remove();
    }
    expect(logged).toContainEqual(expect.stringContaining(`lead job ${last} failed after`));
    const failed = await waitForJob(t, last);
    expect(failed).toMatchObject({ status: 'failed', leadId: null, errors: [{ field: '', message: expect.stringContaining('internal error') }] });
    expect(await leadsOfJob(last)).toEqual([]);
  });

  it('links async duplicates like synchronous ones', async () => {
    const o = await createLeadOrder(t);
    const phone = testPhone();
    const jobs = await Promise.all(Array.from({ length: 5 }, () => post('/v2/lead/create-async/', leadBody(o, { phone })).expect(200)));
    for (const j of jobs) expect((await waitForJob(t, j.headers['x-job-id'])).status).toBe('done');
    const rows: { previous: number | null }[] = await t.ds.query(`SELECT previous_lead_id AS previous FROM lead WHERE order_id = $1`, [o.id]);
    expect(rows.filter((r) => r.previous === null)).toHaveLength(1);
    expect(new Set(rows.map((r) => r.previous)).size).toBe(5);
  });

  it('replays create-async for the same Idempotency-Key with the same X-Job-Id', async () => {
    const body = leadBody(order);
    const a = await post('/v2/lead/create-async/', body).set('Idempotency-Key', 'async-k1').expect(200);
    const b = await post('/v2/lead/create-async/', body).set('Idempotency-Key', 'async-k1').expect(200);
    expect(b.headers['x-job-id']).toBe(a.headers['x-job-id']);
    expect(b.body).toEqual({ success: true, message: '', data: [] });
    await post('/v2/lead/create-async/', { ...body, name: 'other' })
      .set('Idempotency-Key', 'async-k1')
      .expect(409);
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM lead_async_job WHERE payload->>'phone' = $1`, [body.phone]))[0].n).toBe(1);
  });

  it('reports the lead.create queue in the health check with consumers and backlog', async () => {
    const res = await request(t.http).get('/v1/health/check/').set('X-Api-Key', t.apiKey).expect(200);
    const queue = res.body.data.serviceMqHub.data.consumers.find((c: { queue_name: string }) => c.queue_name === 'lead.create');
    expect(queue).toEqual({
      queue_name: 'lead.create',
      success: true,
      data: { current_consumers_count: expect.any(Number), needle_consumers_count: 1, backlog: expect.any(Number) },
    });
    expect(queue.data.current_consumers_count).toBeGreaterThanOrEqual(1);
  });
});

describe('asynchronous lead creation on an API-only instance (WORKERS=0)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps the job queued until a worker takes it', async () => {
    const order = await createLeadOrder(t);
    const res = await request(t.http).post('/v2/lead/create-async/').set('X-Api-Key', t.apiKey).send(leadBody(order)).expect(200);
    const jobId = res.headers['x-job-id'];
    await new Promise((r) => setTimeout(r, 300));
    const queued = await request(t.http).get(`/v2/lead/create-async/${jobId}/`).set('X-Api-Key', t.apiKey).expect(200);
    expect(queued.body.data).toMatchObject({ status: 'queued', leadId: null, errors: [], finishedAt: null });
    const health = await request(t.http).get('/v1/health/check/').set('X-Api-Key', t.apiKey);
    const queue = health.body.data.serviceMqHub.data.consumers.find((c: { queue_name: string }) => c.queue_name === 'lead.create');
    // No consumer anywhere: the queue component fails, and the waiting job is the backlog.
    expect(health.status).toBe(503);
    expect(queue).toEqual({ queue_name: 'lead.create', success: false, data: { current_consumers_count: 0, needle_consumers_count: 1, backlog: 1 } });
    // A worker (here: the handler itself) picks it up later.
    await t.app.get(LeadCreateJobsService).processCreateJob(jobId);
    const done = await request(t.http).get(`/v2/lead/create-async/${jobId}/`).set('X-Api-Key', t.apiKey).expect(200);
    expect(done.body.data).toMatchObject({ status: 'done', leadId: expect.any(Number) });
  });
});
