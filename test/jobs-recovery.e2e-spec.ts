import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { PgBoss } from 'pg-boss';
import request from 'supertest';
import { LEAD_CREATE_QUEUE, LEAD_CREATE_RETRY_LIMIT, LeadCreateJobsService } from '../src/modules/leads/lead-create-jobs.service';
import { createLeadOrder, leadBody, TestOrder } from './factories/leads';
import { failInserts } from './support/db-faults';
import { createSiblingApp, createTestApp, TestApp } from './support/test-app';

/**
 * Every accepted async create ends `done` or `failed`; a job whose worker died mid-flight is retried within seconds
 * (3 s expiry, 1 s supervisor), not at pg-boss's 15-minute default. The app is API-only; a test-side pg-boss client
 * claims jobs and never settles them (the dead worker), and a sibling instance with a worker recovers them.
 */
describe('job recovery: no accepted job stays queued', () => {
  let t: TestApp;
  let order: TestOrder;
  let claimer: PgBoss;
  const env = { WORKERS: '0', JOB_EXPIRE_SECONDS: '3', JOB_SUPERVISE_INTERVAL_SECONDS: '1' };

  const accept = async (body = leadBody(order)): Promise<string> => {
    const res = await request(t.http).post('/v2/lead/create-async/').set('X-Api-Key', t.apiKey).send(body).expect(200);
    return res.headers['x-job-id'];
  };
  const jobState = async (jobId: string) => (await request(t.http).get(`/v2/lead/create-async/${jobId}/`).set('X-Api-Key', t.apiKey).expect(200)).body.data;
  const settled = async (jobId: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await jobState(jobId);
      if (job.status !== 'queued' || Date.now() > deadline) return job;
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  /** Claims the queue's next job as a worker would (active, started now), and never settles it: a worker that died. */
  const claimAndDie = async (jobId: string) => {
    const [job] = await claimer.fetch(LEAD_CREATE_QUEUE);
    expect(job?.id).toBe(jobId);
    expect((await t.ds.query(`SELECT state FROM pgboss.job WHERE id = $1`, [jobId]))[0].state).toBe('active');
  };
  /** A second instance of the service with one worker (the one that picks up after the crash). */
  const withWorker = async <T>(work: () => Promise<T>): Promise<T> => {
    const worker: NestExpressApplication = await createSiblingApp(t, { workers: 1 });
    try {
      return await work();
    } finally {
      await worker.close();
    }
  };

  beforeAll(async () => {
    t = await createTestApp(env);
    order = await createLeadOrder(t);
    claimer = new PgBoss({ connectionString: t.databaseUrl, schema: 'pgboss', supervise: false, schedule: false, migrate: false, max: 1 });
    claimer.on('error', () => undefined);
    await claimer.start();
  });
  afterAll(async () => {
    await claimer.stop({ graceful: false });
    await t.close();
  });

  it('a job whose worker died mid-flight is retried after its expiry and done within seconds', async () => {
    const jobId = await accept();
    await claimAndDie(jobId);
    const started = Date.now();
    const job = await withWorker(() => settled(jobId, 20_000));
    expect(job).toMatchObject({ status: 'done', leadId: expect.any(Number) });
    // expiry (3 s) + supervisor pass (1 s) + first retry delay (1-2 s), with room for a slow machine
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await t.ds.query(`SELECT id FROM lead WHERE job_id = $1`, [jobId])).toEqual([{ id: job.leadId }]);
  });

  it('a job whose last attempt dies goes to the dead-letter queue and ends failed with an error', async () => {
    const jobId = await accept();
    // Its attempts are used up: the expiry of this one fails it for good.
    await t.ds.query(`UPDATE pgboss.job SET retry_count = retry_limit WHERE name = $1 AND id = $2`, [LEAD_CREATE_QUEUE, jobId]);
    await claimAndDie(jobId);
    const job = await withWorker(() => settled(jobId, 20_000));
    expect(job).toMatchObject({ status: 'failed', leadId: null, finishedAt: expect.any(String) });
    expect(job.errors).toEqual([{ field: '', message: expect.stringContaining('send it again') }]);
    expect(await t.ds.query(`SELECT id FROM lead WHERE job_id = $1`, [jobId])).toEqual([]);
  });

  it('the sweep settles job rows whose pg-boss job is gone or failed, and leaves waiting ones queued', async () => {
    const [gone, failed, waiting] = [await accept(), await accept(), await accept()];
    await t.ds.query(`DELETE FROM pgboss.job WHERE name = $1 AND id = $2`, [LEAD_CREATE_QUEUE, gone]);
    await t.ds.query(`UPDATE pgboss.job SET state = 'failed', completed_on = now() WHERE name = $1 AND id = $2`, [LEAD_CREATE_QUEUE, failed]);

    expect(await t.app.get(LeadCreateJobsService).settleLostJobs()).toBe(2);
    for (const jobId of [gone, failed]) {
      expect(await jobState(jobId)).toMatchObject({
        status: 'failed',
        leadId: null,
        errors: [{ field: '', message: expect.stringContaining('send it again') }],
      });
    }
    expect(await jobState(waiting)).toMatchObject({ status: 'queued' });
    expect(await t.app.get(LeadCreateJobsService).settleLostJobs()).toBe(0);
    await t.ds.query(`DELETE FROM pgboss.job WHERE name = $1 AND id = $2`, [LEAD_CREATE_QUEUE, waiting]);
    await t.app.get(LeadCreateJobsService).settleLostJobs();
  });

  it('logs pg-boss losing its connections once when it starts and once when it recovers, not once per error', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const info = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const lines = () => [...warn.mock.calls, ...info.mock.calls, ...error.mock.calls].map((c) => String(c[0])).filter((l) => l.startsWith('pg-boss:'));
    try {
      // The queue's connections are ended under it, again and again: each loss is an error event.
      for (let i = 0; i < 4; i++) {
        await t.ds.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'callcenter-jobs' AND datname = current_database()`);
        await new Promise((r) => setTimeout(r, 150));
      }
      const deadline = Date.now() + 10_000;
      while (!lines().some((l) => l.includes('reachable again')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(lines()).toEqual([
        expect.stringMatching(/^pg-boss: database unreachable \(57P01 admin_shutdown\)$/),
        expect.stringMatching(/^pg-boss: database reachable again after \d+s$/),
      ]);
    } finally {
      warn.mockRestore();
      info.mockRestore();
      error.mockRestore();
    }
  });

  it("logs a job's final failure as its id, attempts and error class, never the error's message", async () => {
    const phone = '+79161234567';
    const jobId = await accept(leadBody(order, { phone }));
    // The lead's insert fails in PostgreSQL with an error whose detail quotes the row, as a CHECK violation's does.
    const fault = await failInserts(t.ds, 'lead', 1, {
      sqlstate: '23514',
      message: 'new row for relation "lead" violates check constraint "lead_phone_check"',
      detail: `Failing row contains (${phone}, Anna).`,
    });
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      await t.app.get(LeadCreateJobsService).processCreateJob(jobId, LEAD_CREATE_RETRY_LIMIT);
      const lines = logged.mock.calls.map((c) => String(c[0]));
      expect(lines).toEqual([`lead job ${jobId} failed after ${LEAD_CREATE_RETRY_LIMIT + 1} attempts: DatabaseError 23514`]);
      expect(await jobState(jobId)).toMatchObject({ status: 'failed' });
    } finally {
      await fault.remove();
      logged.mockRestore();
    }
    await t.ds.query(`DELETE FROM pgboss.job WHERE name = $1 AND id = $2`, [LEAD_CREATE_QUEUE, jobId]);
  });
});
