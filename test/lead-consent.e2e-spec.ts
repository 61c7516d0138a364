import request from 'supertest';
import { createLead, createLeadOrder, leadBody, TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

/** Consent on leads and orders that require it: stored, returned, validated, and keeping unconsented leads from being dialled. */
describe('lead consent', () => {
  let t: TestApp;
  const post = (path: string, body: unknown) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', t.apiKey)
      .send(body as object);
  const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey);
  const detail = async (id: number) => (await get(`/v2/lead/detail/${id}/`).expect(200)).body.data;
  const callable = async (id: number) => (await get(`/v2/lead/callable/${id}/`).expect(200)).body.data;
  const CONSENT = { givenAt: '2026-01-02T03:04:05Z', source: 'web_form', evidenceUrl: 'https://cert.example/abc', token: 'tok-1', text: 'I agree' };
  const STORED = { ...CONSENT, givenAt: '2026-01-02T03:04:05+00:00' };
  const consentOrder = async (): Promise<TestOrder> => {
    const o = await createLeadOrder(t);
    await post(`/v2/order/update/${o.id}/`, { consentRequired: true, autoDialingEnabled: true }).expect(200);
    return o;
  };

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores consent on create and returns it in detail and list; null when none', async () => {
    const o = await createLeadOrder(t);
    const withConsent = await createLead(t, o, { consent: CONSENT });
    const without = await createLead(t, o);
    expect((await detail(withConsent)).consent).toEqual(STORED);
    expect((await detail(without)).consent).toBeNull();
    const list = (await get(`/v2/lead/?orderIds=${o.id}`).expect(200)).body.data;
    const byId = new Map(list.list.map((l: { id: number; consent: unknown }) => [l.id, l.consent]));
    expect(byId.get(withConsent)).toEqual(STORED);
    expect(byId.get(without)).toBeNull();
  });

  it('rejects a future givenAt, an unknown source, a non-https URL and overlong fields, naming each', async () => {
    const o = await createLeadOrder(t);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const fields = async (consent: unknown) => {
      const res = await post('/v2/lead/create/', leadBody(o, { consent })).expect(400);
      return res.body.data.errors.map((e: { field: string }) => e.field).join(',');
    };
    expect(await fields({ givenAt: future, source: 'sms' })).toContain('consent.givenAt');
    expect(await fields({ givenAt: 'yesterday', source: 'sms' })).toContain('givenAt');
    expect(await fields({ givenAt: CONSENT.givenAt, source: 'fax' })).toContain('source');
    expect(await fields({ givenAt: CONSENT.givenAt, source: 'sms', evidenceUrl: 'http://cert.example/a' })).toContain('evidenceUrl');
    for (const evidenceUrl of ['http://cert.example/a', 'cert.example/a']) {
      const res = await post('/v2/lead/create/', leadBody(o, { consent: { givenAt: CONSENT.givenAt, source: 'sms', evidenceUrl } })).expect(400);
      expect(res.body.data.errors).toEqual([{ field: 'consent.evidenceUrl', message: 'evidenceUrl must be an https: URL (https://...)' }]);
    }
    expect(await fields({ givenAt: CONSENT.givenAt, source: 'sms', token: 'x'.repeat(256) })).toContain('token');
    expect(await fields({ givenAt: CONSENT.givenAt, source: 'sms', text: 'x'.repeat(4001) })).toContain('text');
  });

  it('a consentRequired order does not dial a lead without consent; giving consent plans it, withdrawing stops it', async () => {
    const o = await consentOrder();
    const id = await createLead(t, o);
    expect((await detail(id)).planningCallDateTime).toBe('');
    const blocked = await callable(id);
    expect(blocked.reasons).toEqual(['no_consent']);
    expect(blocked.nextCallableAt).toBeNull();

    const before = Date.now();
    await post(`/v2/lead/update/${id}/`, { consent: CONSENT }).expect(200);
    const given = await detail(id);
    expect(given.consent).toEqual(STORED);
    expect(Date.parse(given.planningCallDateTime)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect((await callable(id)).reasons).toEqual([]);

    await post(`/v2/lead/update/${id}/`, { consent: null }).expect(200);
    const withdrawn = await detail(id);
    expect([withdrawn.consent, withdrawn.planningCallDateTime]).toEqual([null, '']);
    expect((await callable(id)).reasons).toEqual(['no_consent']);
  });

  it('a lead created with consent on a consentRequired order is planned at once', async () => {
    const o = await consentOrder();
    const id = await createLead(t, o, { consent: CONSENT });
    expect((await detail(id)).planningCallDateTime).not.toBe('');
  });

  it('batch and upsert take consent', async () => {
    const o = await consentOrder();
    const batch = await post('/v2/lead/create-batch/', { leads: [leadBody(o, { consent: CONSENT }), leadBody(o)] }).expect(200);
    const [a, b] = batch.body.data.results.map((r: { id: number }) => r.id);
    expect([(await detail(a)).consent, (await detail(b)).consent]).toEqual([STORED, null]);
    expect((await detail(b)).planningCallDateTime).toBe('');
    const bad = await post('/v2/lead/create-batch/', { leads: [leadBody(o, { consent: { givenAt: CONSENT.givenAt, source: 'fax' } })] }).expect(200);
    expect(bad.body.data.results[0].errors[0].field).toContain('consent');

    const body = leadBody(o, { externalIdCrmA: `consent-${o.id}`, matchBy: 'externalIdCrmA' });
    const created = (await post('/v2/lead/upsert/', body).expect(200)).body.data;
    expect((await detail(created.id)).planningCallDateTime).toBe('');
    await post('/v2/lead/upsert/', { ...body, consent: CONSENT }).expect(200);
    const updated = await detail(created.id);
    expect(updated.consent).toEqual(STORED);
    expect(updated.planningCallDateTime).not.toBe('');
  });

  it('the async create takes consent', async () => {
    const o = await consentOrder();
    const res = await post('/v2/lead/create-async/', leadBody(o, { consent: CONSENT })).expect(200);
    const jobId = res.headers['x-job-id'];
    const deadline = Date.now() + 15_000;
    let job = (await get(`/v2/lead/create-async/${jobId}/`).expect(200)).body.data;
    while (job.status === 'queued' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      job = (await get(`/v2/lead/create-async/${jobId}/`).expect(200)).body.data;
    }
    expect(job.status).toBe('done');
    const lead = await detail(Number(job.leadId));
    expect(lead.consent).toEqual(STORED);
    expect(lead.planningCallDateTime).not.toBe('');
  });

  it('v1: a lead of a consentRequired order created without consent has no call time', async () => {
    const o = await consentOrder();
    const id = await createLead(t, o);
    const v1 = (await get(`/v1/lead/detail/${id}/`).expect(200)).body.data;
    expect(v1.UF_CALL_DATE_TIME).toBe(0);
  });

  it('orders take, return and validate consentRequired and maxAttemptsPerDay', async () => {
    const o = await createLeadOrder(t);
    const before = (await get(`/v2/order/detail/${o.id}/`).expect(200)).body.data;
    expect([before.consentRequired, before.maxAttemptsPerDay]).toEqual([false, null]);
    await post(`/v2/order/update/${o.id}/`, { consentRequired: true, maxAttemptsPerDay: 3 }).expect(200);
    const after = (await get(`/v2/order/detail/${o.id}/`).expect(200)).body.data;
    expect([after.consentRequired, after.maxAttemptsPerDay]).toEqual([true, 3]);
    for (const bad of [0, 51, 1.5, 'x']) await post(`/v2/order/update/${o.id}/`, { maxAttemptsPerDay: bad }).expect(400);
    await post(`/v2/order/update/${o.id}/`, { maxAttemptsPerDay: null }).expect(200);
    expect((await get(`/v2/order/detail/${o.id}/`).expect(200)).body.data.maxAttemptsPerDay).toBeNull();
  });
});
