import request from 'supertest';
import { clientKeyFor, insertClient } from './factories/clients';
import { createTestApp, TestApp } from './support/test-app';

/** Management of clients (scope admin): create, rename, read, list. */
describe('clients', () => {
  let t: TestApp;
  const post = (path: string, body: unknown, key = t.apiKey) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', key)
      .send(body as object);
  const get = (path: string, key = t.apiKey) => request(t.http).get(path).set('X-Api-Key', key);
  const create = async (name: string) => (await post('/v2/client/create/', { name }).expect(200)).body.data.id as number;
  const countClients = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM client`))[0].n as number;
  const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates a client and reads it back with ISO timestamps', async () => {
    const res = await post('/v2/client/create/', { name: 'Dental clinic «Smile»' }).expect(200);
    expect(res.body).toEqual({ success: true, message: '', data: { id: expect.any(Number) } });
    const id = res.body.data.id;
    const detail = (await get(`/v2/client/detail/${id}/`).expect(200)).body.data;
    expect(detail).toEqual({ id, name: 'Dental clinic «Smile»', createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
  });

  it('refuses a name taken by another client, ignoring case, with 409 and stores nothing', async () => {
    await create('Online school');
    const before = await countClients();
    for (const name of ['Online school', 'ONLINE SCHOOL', 'online School']) {
      const res = await post('/v2/client/create/', { name }).expect(409);
      expect(res.body).toEqual({ success: false, message: expect.stringContaining('already exists'), data: [] });
    }
    expect(await countClients()).toBe(before);
  });

  it('refuses an empty, blank, too long or missing name with 400 naming name', async () => {
    const before = await countClients();
    for (const body of [{ name: '' }, { name: '   ' }, { name: 'x'.repeat(256) }, {}, { name: 7 }, { name: null }]) {
      const res = await post('/v2/client/create/', body).expect(400);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toEqual(['name']);
    }
    expect(await countClients()).toBe(before);
    await post('/v2/client/create/', { name: 'y'.repeat(255) }).expect(200);
  });

  it('renames a client: a new name, its own name in another case; 409 for another client’s name; 404 for an unknown id', async () => {
    const id = await create('Furniture store');
    const other = await create('Car service');
    const [{ updated_at: before }] = await t.ds.query(`SELECT updated_at FROM client WHERE id = $1`, [id]);
    await post(`/v2/client/update/${id}/`, { name: 'Furniture store «Uyut»' }).expect(200, { success: true, message: '', data: [] });
    const renamed = (await get(`/v2/client/detail/${id}/`).expect(200)).body.data;
    expect(renamed.name).toBe('Furniture store «Uyut»');
    const [{ updated_at: after }] = await t.ds.query(`SELECT updated_at FROM client WHERE id = $1`, [id]);
    expect(after.getTime()).toBeGreaterThan(before.getTime());

    await post(`/v2/client/update/${id}/`, { name: 'FURNITURE STORE «UYUT»' }).expect(200);

    const taken = await post(`/v2/client/update/${id}/`, { name: 'car SERVICE' }).expect(409);
    expect(taken.body).toEqual({ success: false, message: expect.stringContaining('already exists'), data: [] });
    const rows = await t.ds.query(`SELECT id, name FROM client WHERE id = ANY($1) ORDER BY id`, [[id, other]]);
    expect(rows).toEqual([
      { id, name: 'FURNITURE STORE «UYUT»' },
      { id: other, name: 'Car service' },
    ]);

    await post('/v2/client/update/2147483647/', { name: 'Nobody' }).expect(404);
    await post('/v2/client/update/2147483647/', { name: 'Car service' }).expect(404);
    const bad = await post('/v2/client/update/0/', { name: 'Nobody' }).expect(400);
    expect(bad.body.data.errors[0].field).toBe('id');
    const blank = await post(`/v2/client/update/${id}/`, { name: ' ' }).expect(400);
    expect(blank.body.data.errors.map((e: { field: string }) => e.field)).toEqual(['name']);
  });

  it('answers 404 for an unknown client and 400 for an id that is not a positive integer', async () => {
    const res = await get('/v2/client/detail/2147483647/').expect(404);
    expect(res.body).toEqual({ success: false, message: 'Client 2147483647 not found', data: [] });
    for (const bad of ['0', '-1', 'abc', '2147483648']) {
      expect((await get(`/v2/client/detail/${bad}/`).expect(400)).body.data.errors[0].field).toBe('id');
    }
  });

  it('lists clients by id with offset, limit and an exact total', async () => {
    for (let i = 0; i < 3; i++) await create(`Listed client ${i}`);
    const all = await t.ds.query(`SELECT id, name FROM client ORDER BY id`);
    const page = (await get('/v2/client/?offset=1&limit=2').expect(200)).body.data;
    expect(page.total).toBe(all.length);
    expect(page.next).toBe(3);
    expect(page.list.map((c: { id: number; name: string }) => ({ id: c.id, name: c.name }))).toEqual(all.slice(1, 3));
    expect(page.list[0]).toEqual({ id: all[1].id, name: all[1].name, createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
    const past = (await get(`/v2/client/?offset=${all.length}`).expect(200)).body.data;
    expect(past).toEqual({ list: [], next: all.length, total: all.length });
    await get('/v2/client/?limit=101').expect(400);
    await get('/v2/client/?offset=-1').expect(400);
  });

  it('needs the admin scope: api and telephony keys, and client keys, get 403 and change nothing', async () => {
    const id = await create('Scoped client');
    const clientKey = await clientKeyFor(t, await insertClient(t));
    const before = await t.ds.query(`SELECT * FROM client ORDER BY id`);
    for (const key of [await t.keyWith('api'), await t.keyWith('telephony'), clientKey]) {
      await post('/v2/client/create/', { name: 'Not allowed' }, key).expect(403);
      await post(`/v2/client/update/${id}/`, { name: 'Not allowed' }, key).expect(403);
      await get(`/v2/client/detail/${id}/`, key).expect(403);
      const list = await get('/v2/client/', key).expect(403);
      expect(list.body).toEqual({ success: false, message: expect.stringContaining("'admin'"), data: [] });
    }
    expect(await t.ds.query(`SELECT * FROM client ORDER BY id`)).toEqual(before);
  });

  it('replays a create sent again with the same Idempotency-Key', async () => {
    const send = () => post('/v2/client/create/', { name: 'Idempotent client' }).set('Idempotency-Key', 'client-create-1').expect(200);
    const first = (await send()).body.data.id;
    expect((await send()).body.data.id).toBe(first);
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM client WHERE name = 'Idempotent client'`))[0].n).toBe(1);
  });
});
