import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { databaseUnavailableReason } from '../src/common/pg-errors';
import { LeadCreateJobsService } from '../src/modules/leads/lead-create-jobs.service';
import { createLead, createLeadOrder, leadBody, testPhone, TestOrder } from './factories/leads';
import { failInserts } from './support/db-faults';
import { createSiblingApp, createTestApp, TestApp } from './support/test-app';

interface JobRow {
  id: string;
  state: string;
  leadId: number | null;
  errors: { field: string }[];
}
interface LeadRow {
  id: number;
  jobId: string | null;
  phone: string;
  previous: number | null;
  next: number | null;
  secondary: boolean;
}

/**
 * The workers' set-based drain (LeadCreateJobsService.processCreateJobs): a fetch of accepted creates is validated job
 * by job and created in one transaction, linked as if created one by one in acceptance order. The app is API-only:
 * jobs stay queued until a test drains them, by calling the handler or with a sibling instance that has a worker.
 */
describe('asynchronous lead creation: batches of jobs', () => {
  let t: TestApp;
  let other: TestOrder;
  let service: LeadCreateJobsService;

  /** Accepts one create-async request and returns its job id (one at a time: acceptance order is call order). */
  const accept = async (body: object): Promise<string> =>
    (await request(t.http).post('/v2/lead/create-async/').set('X-Api-Key', t.apiKey).send(body).expect(200)).headers['x-job-id'];
  const acceptAll = async (bodies: object[]): Promise<string[]> => {
    const ids: string[] = [];
    for (const body of bodies) ids.push(await accept(body));
    return ids;
  };
  const jobs = async (ids: string[]): Promise<Map<string, JobRow>> => {
    const rows: JobRow[] = await t.ds.query(`SELECT id, state, lead_id AS "leadId", errors FROM lead_async_job WHERE id = ANY($1::uuid[])`, [ids]);
    return new Map(rows.map((r) => [r.id, r]));
  };
  const leadsOf = (o: TestOrder): Promise<LeadRow[]> =>
    t.ds.query(
      `SELECT id, job_id AS "jobId", phone, previous_lead_id AS previous, next_lead_id AS next, is_secondary AS secondary
         FROM lead WHERE order_id = $1 ORDER BY id`,
      [o.id],
    );
  const asJobs = (ids: string[], retryCount = 0) => ids.map((id) => ({ id, retryCount }));
  /** The lead ids of one phone's chain, from its head along next_lead_id, checking every back link on the way. */
  const chain = (leads: LeadRow[], phone: string): number[] => {
    const byId = new Map(leads.map((l) => [l.id, l]));
    const own = leads.filter((l) => l.phone === phone);
    const heads = own.filter((l) => l.previous === null);
    expect(heads).toHaveLength(1);
    const ids: number[] = [];
    for (let l: LeadRow | undefined = heads[0], prev: number | null = null; l; prev = l.id, l = l.next === null ? undefined : byId.get(l.next)) {
      expect(l.previous).toBe(prev);
      expect(l.secondary).toBe(prev !== null);
      ids.push(l.id);
    }
    expect(ids).toHaveLength(own.length);
    return ids;
  };

  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0', ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    other = await createLeadOrder(t);
    service = t.app.get(LeadCreateJobsService);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a batch with invalid jobs in the middle: those fail with their errors, the others are done with their leads and events', async () => {
    const o = await createLeadOrder(t);
    const bodies = [
      leadBody(o, { name: 'First' }),
      leadBody(o, { orderCode: other.code }),
      leadBody(o, { name: 'Third' }),
      leadBody(o, { phone: '+70001234567' }),
      leadBody(o, { name: 'Fifth' }),
    ];
    const ids = await acceptAll(bodies);
    const outcomes = await service.processCreateJobs(asJobs(ids));
    expect(outcomes).toEqual(ids.map(() => ({ ok: true })));

    const state = await jobs(ids);
    const leads = await leadsOf(o);
    expect(leads.map((l) => l.jobId)).toEqual([ids[0], ids[2], ids[4]]);
    for (const [i, id] of ids.entries()) {
      const job = state.get(id)!;
      if (i % 2 === 0) {
        expect(job).toMatchObject({ state: 'done', errors: [] });
        expect(leads.find((l) => l.jobId === id)?.id).toBe(job.leadId);
      } else {
        expect(job).toMatchObject({ state: 'failed', leadId: null });
        expect(job.errors.length).toBeGreaterThan(0);
      }
    }
    expect(state.get(ids[1])!.errors.map((e) => e.field)).toEqual(['orderCode']);
    expect(state.get(ids[3])!.errors.map((e) => e.field)).toEqual(['phone']);
    const names = await t.ds.query(`SELECT name FROM lead WHERE order_id = $1 ORDER BY id`, [o.id]);
    expect(names).toEqual([{ name: 'First' }, { name: 'Third' }, { name: 'Fifth' }]);

    // The events trigger: each created lead carries its job id, each failed job is lead.create_failed.
    const events: { type: string; jobId: string; leadId: number | null }[] = await t.ds.query(
      `SELECT type, payload->>'jobId' AS "jobId", (payload->'row'->>'id')::int AS "leadId" FROM event WHERE order_id = $1 ORDER BY seq`,
      [o.id],
    );
    expect(events.filter((e) => e.type === 'lead.created')).toEqual(leads.map((l) => ({ type: 'lead.created', jobId: l.jobId, leadId: l.id })));
    expect(events.filter((e) => e.type === 'lead.create_failed').map((e) => e.jobId)).toEqual([ids[1], ids[3]]);
  });

  it('repeated phones within one batch are linked in the order the jobs were accepted, to the existing leads too', async () => {
    const o = await createLeadOrder(t);
    const [a, b, c] = [testPhone(), testPhone(), testPhone()];
    const existingA = await createLead(t, o, { phone: a });
    const phones = [a, b, a, c, a, b];
    const ids = await acceptAll(phones.map((phone) => leadBody(o, { phone })));
    // Handed over in another order than accepted (pg-boss does not promise its fetch order): acceptance decides.
    await service.processCreateJobs(asJobs([...ids].reverse()));

    const leads = await leadsOf(o);
    const leadOf = (jobId: string) => leads.find((l) => l.jobId === jobId)!.id;
    // Ids drawn in acceptance order, as one-by-one creates would draw them.
    expect(leads.filter((l) => l.jobId !== null).map((l) => l.jobId)).toEqual(ids);
    expect(chain(leads, a)).toEqual([existingA, leadOf(ids[0]), leadOf(ids[2]), leadOf(ids[4])]);
    expect(chain(leads, b)).toEqual([leadOf(ids[1]), leadOf(ids[5])]);
    expect(chain(leads, c)).toEqual([leadOf(ids[3])]);

    // A later batch continues the chains from the batch's last leads.
    const more = await acceptAll([leadBody(o, { phone: b }), leadBody(o, { phone: a })]);
    await service.processCreateJobs(asJobs(more));
    const after = await leadsOf(o);
    const laterOf = (jobId: string) => after.find((l) => l.jobId === jobId)!.id;
    expect(chain(after, a)).toEqual([existingA, leadOf(ids[0]), leadOf(ids[2]), leadOf(ids[4]), laterOf(more[1])]);
    expect(chain(after, b)).toEqual([leadOf(ids[1]), leadOf(ids[5]), laterOf(more[0])]);
  });

  it('a job processed twice creates one lead: at once, again after it is done, and after its done state was lost', async () => {
    const o = await createLeadOrder(t);
    const phone = testPhone();
    const ids = await acceptAll([leadBody(o, { phone }), leadBody(o), leadBody(o, { phone })]);

    // Delivered twice at once (two consumers with overlapping batches): the job rows serialise them.
    await Promise.all([service.processCreateJobs(asJobs(ids)), service.processCreateJobs(asJobs([...ids, ids[0]]))]);
    const leads = await leadsOf(o);
    expect(leads.map((l) => l.jobId)).toEqual(ids);
    const done = await jobs(ids);
    for (const [i, id] of ids.entries()) expect(done.get(id)).toMatchObject({ state: 'done', leadId: leads[i].id });

    // Delivered again after it finished: nothing to do.
    expect(await service.processCreateJobs(asJobs(ids, 1))).toEqual(ids.map(() => ({ ok: true })));
    // The leads committed but the jobs' state was lost: each finds its lead by job id, nothing new, links unchanged.
    await t.ds.query(`UPDATE lead_async_job SET state = 'queued', lead_id = NULL, finished_at = NULL WHERE id = ANY($1::uuid[])`, [ids]);
    await service.processCreateJobs(asJobs(ids, 2));
    expect(await leadsOf(o)).toEqual(leads);
    const again = await jobs(ids);
    for (const [i, id] of ids.entries()) expect(again.get(id)).toMatchObject({ state: 'done', leadId: leads[i].id });
    expect(chain(leads, phone)).toEqual([leads[0].id, leads[2].id]);
  });

  it('a batch that fails is processed again one job at a time, each job settling on its own', async () => {
    const o = await createLeadOrder(t);
    const ids = await acceptAll([leadBody(o), leadBody(o), leadBody(o)]);
    // The batch's insert fails in PostgreSQL, as a serialization failure does; the single ones pass.
    const fault = await failInserts(t.ds, 'lead', 1, { sqlstate: '40001', message: 'could not serialize access due to concurrent update' });
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      expect(await service.processCreateJobs(asJobs(ids))).toEqual(ids.map(() => ({ ok: true })));
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual(['lead job batch of 3 failed, processing its jobs one by one: QueryFailedError 40001']);
      // The batch's insert, then one per job.
      expect(await fault.attempts()).toBe(1 + ids.length);
    } finally {
      await fault.remove();
      warn.mockRestore();
    }
    const leads = await leadsOf(o);
    expect(leads.map((l) => l.jobId).sort()).toEqual([...ids].sort());
    for (const job of (await jobs(ids)).values()) expect(job.state).toBe('done');
  });

  it('a batch that loses the database fails every job for the queue to retry, without trying them one by one', async () => {
    const o = await createLeadOrder(t);
    const ids = await acceptAll([leadBody(o), leadBody(o)]);
    const lost = await failInserts(t.ds, 'lead', 1, 'connection lost');
    try {
      const outcomes = await service.processCreateJobs(asJobs(ids));
      // Every job fails with the batch's error: its connection ended.
      const error = (outcomes[0] as { error?: unknown }).error;
      expect(outcomes).toEqual(ids.map(() => ({ ok: false, error })));
      expect(databaseUnavailableReason(error)).toBe('57P01 admin_shutdown');
      // The batch's insert only: no job was tried on its own.
      expect(await lost.attempts()).toBe(1);
      for (const job of (await jobs(ids)).values()) expect(job.state).toBe('queued');
      expect(await leadsOf(o)).toEqual([]);
    } finally {
      await lost.remove();
    }
    // The retry (here: the handler called again) creates them.
    expect(await service.processCreateJobs(asJobs(ids, 1))).toEqual(ids.map(() => ({ ok: true })));
    expect((await leadsOf(o)).map((l) => l.jobId)).toEqual(ids);
  });

  it('a worker drains a burst of accepted jobs through the queue in batches: every job settled, duplicates linked in order', async () => {
    const o = await createLeadOrder(t);
    const phone = testPhone();
    const bodies = Array.from({ length: 30 }, (_, i) =>
      i % 7 === 3 ? leadBody(o, { orderCode: other.code }) : i % 3 === 0 ? leadBody(o, { phone }) : leadBody(o),
    );
    const ids = await acceptAll(bodies);
    const worker: NestExpressApplication = await createSiblingApp(t, { workers: 1 });
    try {
      const deadline = Date.now() + 20_000;
      while ([...(await jobs(ids)).values()].some((j) => j.state === 'queued') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await worker.close();
    }
    const state = await jobs(ids);
    const leads = await leadsOf(o);
    for (const [i, id] of ids.entries()) {
      const job = state.get(id)!;
      expect(job.state).toBe(i % 7 === 3 ? 'failed' : 'done');
      if (job.state === 'done') expect(leads.filter((l) => l.jobId === id).map((l) => l.id)).toEqual([job.leadId]);
    }
    expect(leads).toHaveLength(ids.filter((_, i) => i % 7 !== 3).length);
    const samePhone = ids.filter((_, i) => i % 3 === 0 && i % 7 !== 3).map((id) => state.get(id)!.leadId);
    expect(chain(leads, phone)).toEqual(samePhone);
  });
});
