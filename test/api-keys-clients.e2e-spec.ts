import request from 'supertest';
import { ApiKeysService } from '../src/modules/auth/api-keys.service';
import { createTestApp, TestApp } from './support/test-app';

/** Client keys: POST /v2/api-key/create/ with a clientId (scope api only), GET /v2/api-key/ shows it. */
describe('client keys', () => {
  let t: TestApp;
  let clientId: number;
  const post = (path: string, body: unknown, key = t.apiKey) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', key)
      .send(body as object);
  const get = (path: string, key = t.apiKey) => request(t.http).get(path).set('X-Api-Key', key);
  const keyRows = () => t.ds.query(`SELECT id, name, scopes, client_id FROM api_key ORDER BY id`);
  const fields = (res: request.Response) => res.body.data.errors.map((e: { field: string }) => e.field);

  beforeAll(async () => {
    t = await createTestApp();
    clientId = (await post('/v2/client/create/', { name: 'Dental clinic' }).expect(200)).body.data.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates a client key of scope api; the key list shows its clientId, and null for unrestricted keys', async () => {
    const created = (await post('/v2/api-key/create/', { name: 'crm-dental', scopes: ['api'], clientId }).expect(200)).body.data;
    const list = (await get('/v2/api-key/').expect(200)).body.data.list as { id: number; name: string; clientId: number | null }[];
    expect(list.find((k) => k.id === created.id)).toEqual({
      id: created.id,
      name: 'crm-dental',
      scopes: ['api'],
      clientId,
      active: true,
      createdAt: expect.any(String),
      revokedAt: null,
    });
    expect(list.filter((k) => k.id !== created.id).every((k) => k.clientId === null)).toBe(true);
    // It authenticates, with its client: the order list is its client's (none yet).
    expect((await get('/v2/order/', created.key).expect(200)).body.data).toEqual({ list: [], next: 0, total: 0 });
  });

  it('creates an unrestricted key when clientId is absent or null', async () => {
    const a = (await post('/v2/api-key/create/', { name: 'plain-a', scopes: ['api', 'admin'] }).expect(200)).body.data.id;
    const b = (await post('/v2/api-key/create/', { name: 'plain-b', scopes: ['telephony'], clientId: null }).expect(200)).body.data.id;
    const rows = await t.ds.query(`SELECT client_id FROM api_key WHERE id = ANY($1)`, [[a, b]]);
    expect(rows).toEqual([{ client_id: null }, { client_id: null }]);
  });

  it('refuses a clientId that names no client with 400 naming clientId, and stores no key', async () => {
    const before = await keyRows();
    const res = await post('/v2/api-key/create/', { name: 'crm-nobody', scopes: ['api'], clientId: 2147483647 }).expect(400);
    expect(res.body).toEqual({
      success: false,
      message: expect.stringContaining('clientId'),
      data: { errors: [{ field: 'clientId', message: 'unknown id: 2147483647' }] },
    });
    for (const bad of [0, -1, 1.5, 'x', 2147483648]) {
      expect(fields(await post('/v2/api-key/create/', { name: 'crm-bad', scopes: ['api'], clientId: bad }).expect(400))).toEqual(['clientId']);
    }
    expect(await keyRows()).toEqual(before);
  });

  it('refuses admin or telephony with a clientId: 400 naming scopes, and stores no key', async () => {
    const before = await keyRows();
    for (const scopes of [['api', 'admin'], ['admin'], ['telephony'], ['api', 'telephony']]) {
      const res = await post('/v2/api-key/create/', { name: 'crm-wide', scopes, clientId }).expect(400);
      expect(res.body.data.errors).toEqual([{ field: 'scopes', message: expect.stringContaining('api scope only') }]);
    }
    // Both faults at once, in one answer.
    const both = await post('/v2/api-key/create/', { name: 'crm-wide', scopes: ['admin'], clientId: 2147483647 }).expect(400);
    expect(fields(both)).toEqual(['scopes', 'clientId']);
    expect(await keyRows()).toEqual(before);
  });

  it('leaves the service API (and the CLI) the same rules', async () => {
    const keys = t.app.get(ApiKeysService);
    await expect(keys.create('svc-wide', ['api', 'admin'], clientId)).rejects.toMatchObject({ kind: 'validation', fieldErrors: [{ field: 'scopes' }] });
    await expect(keys.create('svc-nobody', ['api'], 2147483647)).rejects.toMatchObject({ kind: 'validation', fieldErrors: [{ field: 'clientId' }] });
    const { id } = await keys.create('svc-dental', ['api'], clientId);
    expect((await t.ds.query(`SELECT client_id FROM api_key WHERE id = $1`, [id]))[0].client_id).toBe(clientId);
  });

  it('keeps a client key off admin and telephony routes (403 for the scope)', async () => {
    const { key } = (await post('/v2/api-key/create/', { name: 'crm-dental-2', scopes: ['api'], clientId }).expect(200)).body.data;
    const res = await get('/v2/api-key/', key).expect(403);
    expect(res.body).toEqual({ success: false, message: expect.stringContaining("'admin'"), data: [] });
    await post('/v2/api-key/create/', { name: 'escalate', scopes: ['api', 'admin'] }, key).expect(403);
    await post('/v2/call/create/', {}, key).expect(403);
  });
});
