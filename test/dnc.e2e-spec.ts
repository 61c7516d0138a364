import request from 'supertest';
import { assignOrderToClient, clientKeyFor, insertClient } from './factories/clients';
import { createLeadOrder, testPhone, type TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

/** Do-not-call lists: add, remove, list; phones normalised like a lead's; client keys reach their client's lists only. */
describe('do-not-call lists', () => {
  let t: TestApp;
  let clientA: number;
  let clientB: number;
  let keyA: string;
  let orderA: TestOrder;
  let orderB: TestOrder;
  const post = (path: string, body: object, key = t.apiKey) => request(t.http).post(path).set('X-Api-Key', key).send(body);
  const list = async (query: Record<string, unknown>, key = t.apiKey) => {
    const res = await request(t.http).get('/v2/dnc/').set('X-Api-Key', key).query(query);
    expect(res.status).toBe(200);
    return res.body.data as { list: Record<string, unknown>[]; total: number; next: number };
  };
  const entries = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM dnc_entry`))[0].n as number;
  const fields = (res: request.Response) => (res.body.data?.errors ?? []).map((e: { field: string }) => e.field);

  beforeAll(async () => {
    t = await createTestApp();
    [clientA, clientB] = [await insertClient(t), await insertClient(t)];
    keyA = await clientKeyFor(t, clientA);
    [orderA, orderB] = [await createLeadOrder(t), await createLeadOrder(t)];
    await assignOrderToClient(t, orderA.id, clientA);
    await assignOrderToClient(t, orderB.id, clientB);
  });
  afterAll(async () => {
    await t.close();
  });

  it('adds numbers to the global list normalised like a lead phone, and lists them with every field', async () => {
    const phone = testPhone();
    const res = await post('/v2/dnc/add/', { phones: [` ${phone.slice(1, 2)} (${phone.slice(2, 5)}) ${phone.slice(5)}`, phone], reason: 'asked' }).expect(200);
    expect(res.body).toEqual({ success: true, message: '', data: { count: 1 } });
    const page = await list({ phone: phone.slice(1) });
    expect(page).toEqual({ list: [expect.any(Object)], next: 1, total: 1 });
    expect(page.list[0]).toEqual({
      id: expect.any(Number),
      phone,
      scope: 'global',
      orderId: null,
      clientId: null,
      expiresAt: null,
      reason: 'asked',
      source: 'api',
      callId: null,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/),
    });
  });

  it('updates a later expiry and the reason of a number already on the list, one entry per list', async () => {
    const phone = testPhone();
    await post('/v2/dnc/add/', { phones: [phone], orderId: orderA.id, expiresAt: new Date(Date.now() + 3_600_000).toISOString() }).expect(200);
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    expect((await post('/v2/dnc/add/', { phones: [phone], orderId: orderA.id, expiresAt, reason: 'later' }).expect(200)).body.data).toEqual({ count: 1 });
    expect((await list({ phone })).list[0].expiresAt).toBe(expiresAt.replace(/\.\d{3}Z$/, '+00:00'));
    await post('/v2/dnc/add/', { phones: [phone], clientId: clientA }).expect(200);
    const page = await list({ phone });
    expect(page.total).toBe(2);
    expect(page.list.map((e) => [e.scope, e.orderId, e.clientId, e.reason, e.expiresAt !== null])).toEqual([
      ['order', orderA.id, null, 'later', true],
      ['client', null, clientA, null, false],
    ]);
  });

  it('refuses bad input with 400 naming the field, and stores nothing', async () => {
    const before = await entries();
    const cases: [object, string][] = [
      [{ phones: [testPhone(), 'not a phone'] }, 'phones[1]'],
      [{ phones: [testPhone(), 12345] }, 'phones[1]'],
      [{ phones: [] }, 'phones'],
      [{ phones: Array.from({ length: 1001 }, () => testPhone()) }, 'phones'],
      [{ phones: [testPhone()], orderId: orderA.id, clientId: clientA }, 'clientId'],
      [{ phones: [testPhone()], expiresAt: new Date(Date.now() - 1000).toISOString() }, 'expiresAt'],
      [{ phones: [testPhone()], expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ phones: [testPhone()], reason: 'x'.repeat(256) }, 'reason'],
      [{ phones: [testPhone()], orderId: 2147483000 }, 'orderId'],
      [{ phones: [testPhone()], clientId: 2147483000 }, 'clientId'],
    ];
    for (const [body, field] of cases) {
      const res = await post('/v2/dnc/add/', body);
      expect({ status: res.status, fields: fields(res) }).toEqual({ status: 400, fields: expect.arrayContaining([field]) });
    }
    expect(await entries()).toBe(before);
    const remove = await post('/v2/dnc/remove/', { phones: ['+7'], orderId: orderA.id });
    expect({ status: remove.status, fields: fields(remove) }).toEqual({ status: 400, fields: ['phones[0]'] });
    expect((await request(t.http).get('/v2/dnc/').set('X-Api-Key', t.apiKey).query({ phone: 'abc' })).status).toBe(400);
  });

  it('refuses an expiresAt without a UTC offset (it would be read in the server’s zone) with 400 naming it; Z or ±hh:mm is fine', async () => {
    const before = await entries();
    const answers = [];
    for (const expiresAt of ['2097-01-01T10:00:00', '2097-01-01T10:00', '2097-01-01T10:00:00.000', '2097-01-01']) {
      const res = await post('/v2/dnc/add/', { phones: [testPhone()], expiresAt });
      answers.push({ status: res.status, errors: res.body.data?.errors });
    }
    const refused = {
      status: 400,
      errors: [{ field: 'expiresAt', message: 'must be an ISO 8601 date-time with a UTC offset (Z or ±hh:mm), e.g. 2030-01-01T00:00:00+00:00' }],
    };
    expect(answers).toEqual(answers.map(() => refused));
    expect(await entries()).toBe(before);
    for (const expiresAt of ['2097-01-01T10:00:00Z', '2097-01-01T10:00:00+03:00', '2097-01-01T10:00:00.250-05:30']) {
      const phone = testPhone();
      await post('/v2/dnc/add/', { phones: [phone], expiresAt }).expect(200);
      expect((await list({ phone })).list[0].expiresAt).toBe(new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, '+00:00'));
    }
  });

  it('removes numbers from exactly the list named', async () => {
    const [p1, p2] = [testPhone(), testPhone()];
    await post('/v2/dnc/add/', { phones: [p1, p2], orderId: orderA.id }).expect(200);
    await post('/v2/dnc/add/', { phones: [p1] }).expect(200);
    expect((await post('/v2/dnc/remove/', { phones: [p1, testPhone()], orderId: orderA.id }).expect(200)).body.data).toEqual({ count: 1 });
    expect((await list({ phone: p1 })).list.map((e) => e.scope)).toEqual(['global']);
    expect((await list({ phone: p2 })).list.map((e) => e.scope)).toEqual(['order']);
    expect((await post('/v2/dnc/remove/', { phones: [p1] }).expect(200)).body.data).toEqual({ count: 1 });
    expect((await list({ phone: p1 })).total).toBe(0);
  });

  it('filters by scope, orderId and clientId with an exact total', async () => {
    const phone = testPhone();
    await post('/v2/dnc/add/', { phones: [phone], orderId: orderB.id }).expect(200);
    expect((await list({ orderId: orderB.id, scope: 'order' })).list.map((e) => e.phone)).toContain(phone);
    const page = await list({ scope: 'client', clientId: clientA, limit: 1 });
    expect(page.list.length).toBe(1);
    expect(page.total).toBe((await t.ds.query(`SELECT count(*)::int AS n FROM dnc_entry WHERE scope = 'client' AND client_id = $1`, [clientA]))[0].n);
  });

  it("lets a client key reach its client's list and its orders' lists only", async () => {
    const [own, onOrder, foreign, global] = [testPhone(), testPhone(), testPhone(), testPhone()];
    expect((await post('/v2/dnc/add/', { phones: [own] }, keyA).expect(200)).body.data).toEqual({ count: 1 });
    await post('/v2/dnc/add/', { phones: [onOrder], orderId: orderA.id }, keyA).expect(200);
    await post('/v2/dnc/add/', { phones: [foreign], orderId: orderB.id }).expect(200);
    await post('/v2/dnc/add/', { phones: [global] }).expect(200);
    expect((await list({ phone: own })).list.map((e) => [e.scope, e.clientId])).toEqual([['client', clientA]]);
    const seen = (await list({ limit: 100 }, keyA)).list;
    expect(seen.every((e) => (e.scope === 'client' && e.clientId === clientA) || (e.scope === 'order' && e.orderId === orderA.id))).toBe(true);
    expect(seen.map((e) => e.phone)).toEqual(expect.arrayContaining([own, onOrder]));
    expect((await list({ phone: foreign }, keyA)).total).toBe(0);
    expect((await list({ scope: 'global' }, keyA)).total).toBe(0);
    expect((await list({ orderId: orderB.id }, keyA)).total).toBe(0);

    const before = await entries();
    const missingOrder = await post('/v2/dnc/add/', { phones: [testPhone()], orderId: 2147483000 }, keyA);
    const foreignOrder = await post('/v2/dnc/add/', { phones: [testPhone()], orderId: orderB.id }, keyA);
    expect(foreignOrder.status).toBe(400);
    expect(JSON.stringify(foreignOrder.body).replaceAll(String(orderB.id), 'X')).toBe(JSON.stringify(missingOrder.body).replaceAll('2147483000', 'X'));
    expect(fields(await post('/v2/dnc/add/', { phones: [testPhone()], clientId: clientB }, keyA))).toEqual(['clientId']);
    expect(fields(await post('/v2/dnc/remove/', { phones: [foreign], orderId: orderB.id }, keyA))).toEqual(['orderId']);
    expect(await entries()).toBe(before);
    expect((await list({ phone: foreign })).total).toBe(1);
  });
});
