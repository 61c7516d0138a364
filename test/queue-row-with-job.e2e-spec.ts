import { randomUUID } from 'node:crypto';
import { LEAD_CREATE_QUEUE } from '../src/modules/leads/lead-create-jobs.service';
import { LeadAsyncJobsRepository } from '../src/modules/leads/persistence/lead-async-jobs.repository';
import { JobQueueService } from '../src/modules/queue/job-queue.service';
import { createLeadOrder, TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

/** The asynchronous accept's single statement (JobQueueService.sendWithRow) on the real pg-boss schema. */
describe('a row and its job in one statement', () => {
  let t: TestApp;
  let order: TestOrder;
  let queue: JobQueueService;
  let jobs: LeadAsyncJobsRepository;
  const count = async (sql: string, id: string) => (await t.ds.query(sql, [id]))[0].n as number;
  const rowsOf = (id: string) => count(`SELECT count(*)::int AS n FROM lead_async_job WHERE id = $1`, id);
  const jobsOf = (id: string) => count(`SELECT count(*)::int AS n FROM pgboss.job WHERE id = $1`, id);
  const statement = (id: string) => jobs.insertStatement({ id, orderId: order.id, payload: { orderId: order.id }, apiKeyId: null });

  beforeAll(async () => {
    // No workers: the jobs stay where the statement put them. One pool connection: the statement
    // prepared by a call is visible to the next query.
    t = await createTestApp({ WORKERS: '0', DB_POOL_SIZE: '1' });
    order = await createLeadOrder(t);
    queue = t.app.get(JobQueueService);
    jobs = t.app.get(LeadAsyncJobsRepository);
  });
  afterAll(async () => {
    await t.close();
  });

  it('inserts the row and the job with one named statement and no transaction of its own', async () => {
    const id = randomUUID();
    expect(await queue.sendWithRow(LEAD_CREATE_QUEUE, { orderId: order.id }, id, statement(id))).toBe(true);
    // One statement wrote both: one transaction (xmin), and the first and only command of it (cmin 0).
    // The fallback's transaction writes the row, then the job: two commands.
    const written = (table: string) => t.ds.query(`SELECT xmin::text AS xmin, cmin::text AS cmin FROM ${table} WHERE id = $1`, [id]);
    const [row] = await written('lead_async_job');
    expect(await written('pgboss.job')).toEqual([{ xmin: row.xmin, cmin: '0' }]);
    expect(row.cmin).toBe('0');
    // A named statement: prepared on the pool's one connection, where this query runs too.
    const prepared = await t.ds.query(`SELECT name, statement FROM pg_prepared_statements WHERE starts_with(name, 'row_with_job_')`);
    expect(prepared).toEqual([
      { name: expect.stringMatching(/^row_with_job_\d+$/), statement: expect.stringMatching(/^WITH caller_row AS \(INSERT INTO lead_async_job/) },
    ]);
    expect(await rowsOf(id)).toBe(1);
    expect(await jobsOf(id)).toBe(1);
    const [job] = await t.ds.query(`SELECT name, state, retry_limit AS "retryLimit", dead_letter AS "deadLetter" FROM pgboss.job WHERE id = $1`, [id]);
    // The queue's own options apply, as with send.
    expect(job).toMatchObject({ name: LEAD_CREATE_QUEUE, state: 'created', deadLetter: expect.any(String) });
    expect(job.retryLimit).toBeGreaterThan(0);
  });

  it('enqueues nothing when the row exists already (a retried request with a fixed id), even after its job is gone', async () => {
    const id = randomUUID();
    expect(await queue.sendWithRow(LEAD_CREATE_QUEUE, { orderId: order.id }, id, statement(id))).toBe(true);
    await t.ds.query(`DELETE FROM pgboss.job WHERE id = $1`, [id]);
    expect(await queue.sendWithRow(LEAD_CREATE_QUEUE, { orderId: order.id }, id, statement(id))).toBe(false);
    expect(await rowsOf(id)).toBe(1);
    expect(await jobsOf(id)).toBe(0);
  });

  it('writes neither when the statement fails (the row refused by PostgreSQL)', async () => {
    const id = randomUUID();
    const bad = { ...statement(id), values: [id, order.id, 'not json', null] };
    await expect(queue.sendWithRow(LEAD_CREATE_QUEUE, { orderId: order.id }, id, bad)).rejects.toThrow();
    expect(await rowsOf(id)).toBe(0);
    expect(await jobsOf(id)).toBe(0);
  });
});
