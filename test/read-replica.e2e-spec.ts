import { Client } from 'pg';
import request from 'supertest';
import { createLead, createLeadOrder, TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-db';

/**
 * Replication itself is PostgreSQL's business; what the service owns is where each read goes.
 * The "replica" here is a second database that receives rows only when the test copies them,
 * so a read that reaches it is visible by what it (does not yet) contain.
 */
describe('read replicas (DATABASE_REPLICA_URLS)', () => {
  let replica: { url: string; drop(): Promise<void> };
  let t: TestApp;
  let order: TestOrder;
  let leadId: number;

  beforeAll(async () => {
    replica = await createTestDatabase();
    t = await createTestApp({ DATABASE_REPLICA_URLS: replica.url });
    order = await createLeadOrder(t);
    leadId = await createLead(t, order, { name: 'Replica Rita' });
  });
  afterAll(async () => {
    await t.close();
    await replica.drop();
  });

  const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey).expect(200);

  /** "Replication catches up": the order and lead rows copied to the replica as they are. */
  async function replicate(): Promise<void> {
    const [orderRow] = await t.ds.query(`SELECT row_to_json(o) AS r FROM call_order o WHERE id = $1`, [order.id]);
    const [leadRow] = await t.ds.query(`SELECT row_to_json(l) AS r FROM lead l WHERE id = $1`, [leadId]);
    const c = new Client({ connectionString: replica.url });
    await c.connect();
    try {
      await c.query(`INSERT INTO call_order SELECT * FROM json_populate_record(null::call_order, $1)`, [orderRow.r]);
      await c.query(`INSERT INTO lead SELECT * FROM json_populate_record(null::lead, $1)`, [leadRow.r]);
    } finally {
      await c.end();
    }
  }

  it('reads back a new lead at once from the primary, while the lead list comes from the lagging replica', async () => {
    expect((await get(`/v2/lead/detail/${leadId}/`)).body.data).toMatchObject({ id: leadId, name: 'Replica Rita' });
    const list = (await get(`/v2/lead/?orderIds=${order.id}`)).body.data;
    expect(list).toEqual({ list: [], next: 0, total: 0 });
    expect((await get(`/v2/call/?leadIds=${leadId}`)).body.data).toEqual({ list: [], next: 0, total: 0 });
  });

  it('lists the lead with its exact total once the replica has it', async () => {
    await replicate();
    const list = (await get(`/v2/lead/?orderIds=${order.id}`)).body.data;
    expect(list.total).toBe(1);
    expect(list.list.map((l: { id: number }) => l.id)).toEqual([leadId]);
  });

  it('falls back to the primary when the replica goes away after start, and back to the replica when it returns', async () => {
    const name = new URL(replica.url).pathname.slice(1);
    const admin = new Client({ connectionString: t.databaseUrl });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
      await createLead(t, order, { name: 'Only on the primary' });
      const down = (await get(`/v2/lead/?orderIds=${order.id}`)).body.data;
      expect(down.total).toBe(2); // the primary's view: both leads
      await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
      const back = (await get(`/v2/lead/?orderIds=${order.id}`)).body.data;
      expect(back.total).toBe(1); // the replica's view again
    } finally {
      await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`).catch(() => undefined);
      await admin.end();
    }
  });

  it('writes always go to the primary', async () => {
    const second = await createLead(t, order, { name: 'Primary Pete' });
    const rows = await t.ds.query(`SELECT name FROM lead WHERE id = $1`, [second]);
    expect(rows).toEqual([{ name: 'Primary Pete' }]);
  });
});

describe('an unreachable read replica', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DATABASE_REPLICA_URLS: 'postgres://postgres@127.0.0.1:1/nowhere' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is not an outage: lists are served by the primary', async () => {
    const order = await createLeadOrder(t);
    const id = await createLead(t, order);
    const res = await request(t.http).get(`/v2/lead/?orderIds=${order.id}`).set('X-Api-Key', t.apiKey).expect(200);
    expect(res.body.data.total).toBe(1);
    expect(res.body.data.list[0].id).toBe(id);
    await request(t.http).get(`/v2/call/?orderIds=${order.id}`).set('X-Api-Key', t.apiKey).expect(200);
  });
});
