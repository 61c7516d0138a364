import request from 'supertest';
import { CreatedAtRoundedLeads1763863300000 } from '../migrations/1763863300000-created-at-rounded-leads';
import { CreatedAtTruncated1763863200000 } from '../migrations/1763863200000-created-at-truncated';
import { RowTriggers1795800000000 } from '../migrations/1795800000000-row-triggers';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { createLead, createLeadOrder, TestOrder } from './factories/leads';
import { createSipEndpoint } from './factories/reference';
import { createTestApp, TestApp } from './support/test-app';

/** Whole seconds as shown (ISO 8601 without fractions). */
const shownSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/** Leads per (order, status, UTC hour) as counted by the counters, and as they really are. */
const COUNTERS_VS_ROWS = `
  WITH counted AS (
    SELECT order_id, status_id, hour, sum(n)::int AS n FROM (
      SELECT order_id, status_id, hour, n FROM lead_count_hour
      UNION ALL SELECT order_id, status_id, hour, n FROM lead_count_delta) c
    GROUP BY 1, 2, 3 HAVING sum(n) <> 0),
  actual AS (SELECT order_id, status_id, lead_count_hour_of(created_at) AS hour, count(*)::int AS n FROM lead GROUP BY 1, 2, 3)
  SELECT * FROM counted FULL JOIN actual USING (order_id, status_id, hour)
   WHERE counted.n IS DISTINCT FROM actual.n`;

/**
 * createdAt is truncated to the second, never rounded: it is never after the updatedAt shown
 * beside it, nor in the future.
 */
describe('createdAt of leads and calls', () => {
  let t: TestApp;
  let order: TestOrder;
  const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey).expect(200);

  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
    order = await createLeadOrder(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('50 new leads: createdAt <= updatedAt and createdAt <= now, as shown', async () => {
    for (let i = 0; i < 50; i++) {
      const id = await createLead(t, order);
      const lead = (await get(`/v2/lead/detail/${id}/`)).body.data;
      const shownNow = shownSecond(Date.now());
      const created = Date.parse(lead.createdAt);
      expect(created).toBeLessThanOrEqual(Date.parse(lead.updatedAt));
      expect(created).toBeLessThanOrEqual(shownNow);
    }
    expect(await t.ds.query(`SELECT id FROM lead WHERE created_at <> date_trunc('second', created_at) OR created_at > updated_at`)).toEqual([]);
  });

  it("a call's createdAt is its startedAt truncated, not rounded", async () => {
    const sipId = await createSipEndpoint(t);
    const created = await request(t.http)
      .post('/v2/order/create/')
      .set('X-Api-Key', t.apiKey)
      .send({ serviceTitle: 'created-at', title: 'Created at', status: 'info', sipEndpointIds: [sipId] })
      .expect(200);
    const orderId = created.body.data.id;
    const code = (await t.ds.query(`SELECT code FROM call_order WHERE id = $1`, [orderId]))[0].code;
    const leadId = await createLead(t, { id: orderId, code });
    const [{ id: statusId }] = await t.ds.query(`SELECT id FROM call_status WHERE category = 'not-answered' AND NOT is_callback ORDER BY id LIMIT 1`);
    const startedAt = new Date(Date.now() - 120_000);
    startedAt.setUTCMilliseconds(900);
    const call = await request(t.http)
      .post('/v2/call/create/')
      .set('X-Api-Key', await t.keyWith('telephony'))
      .send({
        platformCallId: 'created-at-1',
        leadId,
        orderId,
        sipEndpointId: sipId,
        statusId,
        direction: 'outgoing',
        totalDurationSeconds: 10,
        waitTimeDurationSeconds: 10,
        talkTimeDurationSeconds: 0,
        startedAt: startedAt.toISOString(),
      })
      .expect(200);
    const shown = (await get(`/v2/call/detail/${call.body.data.id}/`)).body.data.createdAt;
    expect(Date.parse(shown)).toBe(shownSecond(startedAt.getTime()));
  });

  it('the demo dataset has no lead created after its last update, and whole-second creation times', async () => {
    await t.app.get(DemoSeeder).run();
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM lead`))[0].n).toBeGreaterThan(300);
    expect(await t.ds.query(`SELECT id FROM lead WHERE created_at <> date_trunc('second', created_at) OR created_at > updated_at`)).toEqual([]);
    expect(await t.ds.query(`SELECT id FROM call WHERE created_at <> date_trunc('second', created_at)`)).toEqual([]);
  });

  it('the migrations move leads rounded up by the old column back one second, counters exact across an hour', async () => {
    const migration = new CreatedAtTruncated1763863200000();
    // The row triggers name created_at in their WHEN clauses: undone first, as reverting the migrations in order would.
    const rowTriggers = new RowTriggers1795800000000();
    const q = t.ds.createQueryRunner();
    try {
      await rowTriggers.down(q);
      await migration.down(q);
      // As the old timestamptz(0) column stored them: 10:59:59.7 rounded up into the next hour.
      const rounded = await createLead(t, order);
      const untouched = await createLead(t, order);
      await t.ds.query(`UPDATE lead SET created_at = '2026-03-02T10:59:59.7Z', updated_at = '2026-03-02T10:59:59.7Z' WHERE id = $1`, [rounded]);
      await t.ds.query(`UPDATE lead SET created_at = '2026-03-02T10:59:59.2Z', updated_at = '2026-03-02T10:59:59.2Z' WHERE id = $1`, [untouched]);
      const before = await t.ds.query(`SELECT id, created_at AS "createdAt" FROM lead WHERE id = ANY($1) ORDER BY id`, [[rounded, untouched]]);
      expect(before.map((r: { createdAt: Date }) => r.createdAt.toISOString())).toEqual(['2026-03-02T11:00:00.000Z', '2026-03-02T10:59:59.000Z']);
      expect(await t.ds.query(COUNTERS_VS_ROWS)).toEqual([]);
      await migration.up(q);
      await new CreatedAtRoundedLeads1763863300000().up(q);
      await rowTriggers.up(q);
    } finally {
      await q.release();
    }
    const after = await t.ds.query(`SELECT created_at AS "createdAt" FROM lead WHERE created_at >= '2026-03-02' AND created_at < '2026-03-03'`);
    expect(after.map((r: { createdAt: Date }) => r.createdAt.toISOString())).toEqual(['2026-03-02T10:59:59.000Z', '2026-03-02T10:59:59.000Z']);
    expect(await t.ds.query(`SELECT id FROM lead WHERE created_at > updated_at`)).toEqual([]);
    expect(await t.ds.query(COUNTERS_VS_ROWS)).toEqual([]);
  });
});
