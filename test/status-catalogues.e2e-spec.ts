import request from 'supertest';
import { createLead, createLeadOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

/** Managing the lead and call status catalogues (PRODUCT.md: reference data, scope admin). */
describe('status catalogues: management', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.keyWith('admin');
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (path: string, body: object, key = admin) => request(t.http).post(path).set('X-Api-Key', key).send(body);
  const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey).expect(200);
  const defaults = async () => (await t.ds.query(`SELECT id FROM lead_status WHERE is_default`)).map((r: { id: number }) => r.id);

  it('creates a lead status with an id of 100 up, readable in the list and by detail', async () => {
    const res = await post('/v2/lead-status/create/', { code: 'meeting-booked', title: 'Meeting booked', category: 'qualified' }).expect(200);
    expect(res.body).toEqual({ success: true, message: '', data: { id: expect.any(Number) } });
    const id = res.body.data.id;
    expect(id).toBeGreaterThanOrEqual(100);
    const expected = { id, code: 'meeting-booked', title: 'Meeting booked', category: 'qualified', isDefault: false };
    expect((await get(`/v2/lead-status/detail/${id}/`)).body.data).toEqual(expected);
    expect((await get('/v2/lead-status/')).body.data).toContainEqual(expected);
  });

  it('lets a lead be set to the new status at once (this instance drops its cache)', async () => {
    const id = (await post('/v2/lead-status/create/', { code: 'demo-done', title: 'Demo done', category: 'closed' }).expect(200)).body.data.id;
    const leadId = await createLead(t, await createLeadOrder(t));
    await request(t.http).post(`/v2/lead/update/${leadId}/`).set('X-Api-Key', t.apiKey).send({ statusId: id }).expect(200);
    expect((await get(`/v2/lead/detail/${leadId}/`)).body.data.statusId).toBe(id);
  });

  it('moves the default: exactly one, always in-progress, and new leads get it', async () => {
    const id = (await post('/v2/lead-status/create/', { code: 'fresh', title: 'Fresh', category: 'in-progress', isDefault: true }).expect(200)).body.data.id;
    expect(await defaults()).toEqual([id]);
    const leadId = await createLead(t, await createLeadOrder(t));
    expect((await get(`/v2/lead/detail/${leadId}/`)).body.data.statusId).toBe(id);
    // Back to status 1 by update.
    await post('/v2/lead-status/update/1/', { isDefault: true }).expect(200);
    expect(await defaults()).toEqual([1]);
  });

  it.each([
    ['a default that is not in-progress', '/v2/lead-status/create/', { code: 'x-won', title: 'Won', category: 'qualified', isDefault: true }, 'category'],
    ['taking the default flag off the default', '/v2/lead-status/update/1/', { isDefault: false }, 'isDefault'],
    ['moving the default out of in-progress', '/v2/lead-status/update/1/', { category: 'closed' }, 'category'],
    ['a bad code', '/v2/lead-status/create/', { code: 'Bad Code', title: 'X', category: 'closed' }, 'code'],
    ['an unknown category', '/v2/lead-status/create/', { code: 'x-1', title: 'X', category: 'won' }, 'category'],
    ['a blank title', '/v2/call-status/create/', { code: 'x-2', title: ' ', category: 'answered' }, 'title'],
    ['a call category of leads', '/v2/call-status/create/', { code: 'x-3', title: 'X', category: 'qualified' }, 'category'],
    ['a null title on update', '/v2/lead-status/update/2/', { title: null }, 'title'],
    ['a null callback flag on update', '/v2/call-status/update/1/', { isCallback: null }, 'isCallback'],
  ])('refuses %s with 400, changing nothing', async (_what, path, body, field) => {
    const counts = async () => (await t.ds.query(`SELECT (SELECT count(*) FROM lead_status) + (SELECT count(*) FROM call_status) AS n`))[0].n;
    const n = await counts();
    const res = await post(path, body).expect(400);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await counts()).toBe(n);
    expect(await defaults()).toEqual([1]);
  });

  it('answers 409 for a code already taken in the same catalogue, 404 for an unknown status', async () => {
    await post('/v2/lead-status/create/', { code: 'new', title: 'Again', category: 'in-progress' }).expect(409);
    await post('/v2/lead-status/update/2/', { code: 'new' }).expect(409);
    await post('/v2/lead-status/update/99999/', { title: 'X' }).expect(404);
    await post('/v2/call-status/update/99999/', { title: 'X' }).expect(404);
    await request(t.http).get('/v2/call-status/detail/99999/').set('X-Api-Key', t.apiKey).expect(404);
  });

  it('creates and updates call statuses; a callback status takes part in call ingestion', async () => {
    const id = (await post('/v2/call-status/create/', { code: 'answering-machine', title: 'Answering machine', category: 'not-answered' }).expect(200)).body
      .data.id;
    expect((await get(`/v2/call-status/detail/${id}/`)).body.data).toEqual({
      id,
      code: 'answering-machine',
      title: 'Answering machine',
      category: 'not-answered',
      isCallback: false,
      isOptOut: false,
      redial: { afterMinutes: null, maxAttempts: null, final: false },
    });
    await post(`/v2/call-status/update/${id}/`, { title: 'Voicemail box', isCallback: true, isOptOut: true, redial: { afterMinutes: 60 } }).expect(200);
    expect((await get('/v2/call-status/')).body.data).toContainEqual({
      id,
      code: 'answering-machine',
      title: 'Voicemail box',
      category: 'not-answered',
      isCallback: true,
      isOptOut: true,
      redial: { afterMinutes: 60, maxAttempts: null, final: false },
    });
  });

  it('needs the admin scope to change a catalogue, and the api scope to read it', async () => {
    const apiOnly = await t.keyWith('api');
    await post('/v2/lead-status/create/', { code: 'nope', title: 'Nope', category: 'closed' }, apiOnly).expect(403);
    await post('/v2/call-status/update/1/', { title: 'Nope' }, apiOnly).expect(403);
    await request(t.http).get('/v2/lead-status/').set('X-Api-Key', apiOnly).expect(200);
  });

  it('keeps one default under concurrent moves', async () => {
    const ids: number[] = [];
    for (const code of ['race-a', 'race-b', 'race-c'])
      ids.push((await post('/v2/lead-status/create/', { code, title: code, category: 'in-progress' }).expect(200)).body.data.id);
    const results = await Promise.all(ids.map((id) => post(`/v2/lead-status/update/${id}/`, { isDefault: true })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const now = await defaults();
    expect(now).toHaveLength(1);
    expect(ids).toContain(now[0]);
    await post('/v2/lead-status/update/1/', { isDefault: true }).expect(200);
  });
});
