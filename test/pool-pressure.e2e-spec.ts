import { getDataSourceToken } from '@nestjs/typeorm';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { WORKER_DATA_SOURCE } from '../src/modules/queue/persistence/worker-database';
import { createLead, createLeadOrder, TestOrder } from './factories/leads';
import { createCallAttemptGroup, createSipEndpoint } from './factories/reference';
import { createTestApp, TestApp } from './support/test-app';

/**
 * No code path holds one pool connection while waiting for another: call records and lead updates read order settings
 * inside the transaction holding the lead's row lock, and a second connection for that read would deadlock a small pool
 * (every request a 503 after the connect timeout) once more transactions are in flight than it has connections (2 here).
 */
describe('pool pressure: transactions never wait for a second connection', () => {
  let t: TestApp;
  let telephonyKey: string;
  let sipId: number;
  let order: TestOrder;
  let statusId: number;
  const CALLS = 40;
  const UPDATES = 20;

  beforeAll(async () => {
    t = await createTestApp({ DB_POOL_SIZE: '2', ORDER_SETTINGS_CACHE_TTL_MS: '0', WORKERS: '0', DB_LOCK_TIMEOUT_MS: '1000', DB_STATEMENT_TIMEOUT_MS: '7000' });
    telephonyKey = await t.keyWith('telephony');
    sipId = await createSipEndpoint(t);
    order = await createLeadOrder(t, { defaultUtcOffset: 3 });
    const group = await createCallAttemptGroup(t, { intervals: [5, 60] });
    await t.ds.query(`UPDATE call_order SET call_attempt_group_id = $2 WHERE id = $1`, [order.id, group]);
    statusId = (await t.ds.query(`SELECT id FROM call_status WHERE category = 'not-answered' AND NOT is_callback ORDER BY id LIMIT 1`))[0].id;
  });
  afterAll(async () => {
    await t.close();
  });

  it(`${CALLS} concurrent call records and ${UPDATES} lead updates on distinct leads all succeed with a 2-connection pool`, async () => {
    const leads: number[] = [];
    for (let i = 0; i < CALLS + UPDATES; i++) leads.push(await createLead(t, order, { utcOffset: 3 }));
    const calls = leads.slice(0, CALLS).map((leadId, i) =>
      request(t.http)
        .post('/v2/call/create/')
        .set('X-Api-Key', telephonyKey)
        .send({
          platformCallId: `pool-pressure-${process.pid}-${i}`,
          leadId,
          sipEndpointId: sipId,
          statusId,
          direction: 'outgoing',
          totalDurationSeconds: 30,
          waitTimeDurationSeconds: 30,
          talkTimeDurationSeconds: 0,
        }),
    );
    // A new offset re-plans the next call inside the transaction: it needs the order's settings there.
    const updates = leads.slice(CALLS).map((leadId) => request(t.http).post(`/v2/lead/update/${leadId}/`).set('X-Api-Key', t.apiKey).send({ utcOffset: 5 }));
    const started = Date.now();
    const answers = await Promise.all([...calls, ...updates]);
    const elapsed = Date.now() - started;

    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // Well under one pool connect timeout (3 s) per request: nothing waited for a connection it could not get.
    expect(elapsed).toBeLessThan(15_000);
    const attempts: { n: number }[] = await t.ds.query(`SELECT count(*)::int AS n FROM lead WHERE id = ANY($1) AND attempt_count = 1`, [leads.slice(0, CALLS)]);
    expect(attempts[0].n).toBe(CALLS);
    const moved: { n: number }[] = await t.ds.query(`SELECT count(*)::int AS n FROM lead WHERE id = ANY($1) AND utc_offset = 5`, [leads.slice(CALLS)]);
    expect(moved[0].n).toBe(UPDATES);
  }, 60_000);

  it("every connection of the service's pools (HTTP and workers) carries the statement and lock timeouts", async () => {
    const workers = t.app.get<DataSource>(getDataSourceToken(WORKER_DATA_SOURCE));
    for (const ds of [t.ds, workers]) {
      expect(await ds.query(`SELECT current_setting('statement_timeout') AS s, current_setting('lock_timeout') AS l`)).toEqual([{ s: '7s', l: '1s' }]);
    }
  });

  it('a lock held elsewhere for longer than DB_LOCK_TIMEOUT_MS ends the request with 503 and Retry-After, not a wait for ever', async () => {
    const leadId = await createLead(t, order);
    const other = new Client({ connectionString: t.databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT id FROM lead WHERE id = $1 FOR UPDATE', [leadId]);
      const started = Date.now();
      const res = await request(t.http).post(`/v2/lead/update/${leadId}/`).set('X-Api-Key', t.apiKey).send({ name: 'Locked' });
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBeDefined();
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
    await request(t.http).post(`/v2/lead/update/${leadId}/`).set('X-Api-Key', t.apiKey).send({ name: 'Unlocked' }).expect(200);
  });
});
