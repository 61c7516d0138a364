import request from 'supertest';
import { callAttemptGroupsDemoSeed } from '../src/modules/call-attempt-groups/call-attempt-groups.seed';
import { callScenariosDemoSeed } from '../src/modules/call-scenarios/call-scenarios.seed';
import { sipEndpointsDemoSeed } from '../src/modules/sip-endpoints/sip-endpoints.seed';
import { createCallAttemptGroup, createCallScenario, createSipEndpoint, uniquePhone } from './factories/reference';
import { pendingDemoSteps } from './support/demo-steps';
import { createTestApp, TestApp } from './support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

describe('reference data: sip endpoints, call scenarios, call attempt groups', () => {
  let t: TestApp;
  let apiOnly: string;
  const get = (path: string, key = t.apiKey) => request(t.http).get(path).set('X-Api-Key', key);
  const post = (path: string, body: unknown, key = t.apiKey) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', key)
      .send(body as object);
  const count = async (table: string) => (await t.ds.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

  beforeAll(async () => {
    t = await createTestApp();
    apiOnly = await t.keyWith('api');
  });
  afterAll(async () => {
    await t.close();
  });

  /** Walks a list endpoint page by page and checks the wrapper on the way. */
  async function walk(path: string, limit: number, expectedTotal: number): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let offset = 0;
    for (;;) {
      const sep = path.includes('?') ? '&' : '?';
      const { list, next, total } = (await get(`${path}${sep}offset=${offset}&limit=${limit}`).expect(200)).body.data;
      expect(total).toBe(expectedTotal);
      expect(next).toBe(offset + list.length);
      expect(list.length).toBeLessThanOrEqual(limit);
      items.push(...list);
      if (list.length === 0 || next === total) break;
      offset = next;
    }
    const ids = items.map((i) => i.id as number);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const after = (await get(`${path}${path.includes('?') ? '&' : '?'}offset=${expectedTotal}&limit=${limit}`).expect(200)).body.data;
    expect(after).toEqual({ list: [], next: expectedTotal, total: expectedTotal });
    return items;
  }

  describe('sip endpoints', () => {
    it('creates a number normalised to E.164; detail and list show it with exact types', async () => {
      const res = await post('/v2/sip-endpoint/create/', {
        number: '7 (495) 123-45-67',
        title: 'Москва',
        id: 50,
        createdAt: '2000-01-01T00:00:00Z',
        extra: true,
      }).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: { id: expect.any(Number) } });
      const id = res.body.data.id;
      expect(id).not.toBe(50);
      const detail = await get(`/v2/sip-endpoint/detail/${id}/`).expect(200);
      expect(detail.body).toEqual({
        success: true,
        message: '',
        data: { id, number: '+74951234567', title: 'Москва', isActive: true, createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) },
      });
      expect(detail.body.data.createdAt).not.toContain('2000');
      const list = (await get('/v2/sip-endpoint').expect(200)).body.data;
      expect(list.list).toContainEqual(detail.body.data);
      const stored = await t.ds.query(`SELECT number FROM sip_endpoint WHERE id = $1`, [id]);
      expect(stored[0].number).toBe('+74951234567');
    });

    it('rejects a duplicate number (in any notation) with 409, storing nothing', async () => {
      await createSipEndpoint(t, { number: '+442071234567' });
      const before = await count('sip_endpoint');
      const res = await post('/v2/sip-endpoint/create/', { number: '44 20 7123 4567', title: 'London again' }).expect(409);
      expect(res.body).toEqual({ success: false, message: expect.stringContaining('+442071234567'), data: [] });
      expect(await count('sip_endpoint')).toBe(before);
    });

    it.each([
      ['missing number', { title: 'x' }, 'number'],
      ['number not a string', { number: 74951234567, title: 'x' }, 'number'],
      ['invalid number', { number: '+1234', title: 'x' }, 'number'],
      ['letters in number', { number: '+7495abc4567', title: 'x' }, 'number'],
      ['number too long', { number: '+7'.padEnd(40, '1'), title: 'x' }, 'number'],
      ['missing title', { number: '+78123456780' }, 'title'],
      ['empty title', { number: '+78123456780', title: '' }, 'title'],
      ['blank title', { number: '+78123456780', title: '  ' }, 'title'],
      ['title too long', { number: '+78123456780', title: 'x'.repeat(256) }, 'title'],
      ['isActive as string', { number: '+78123456780', title: 'x', isActive: 'false' }, 'isActive'],
      ['isActive null', { number: '+78123456780', title: 'x', isActive: null }, 'isActive'],
    ])('rejects %s on create with 400, storing nothing', async (_case, body, field) => {
      const before = await count('sip_endpoint');
      const res = await post('/v2/sip-endpoint/create/', body).expect(400);
      expect(res.body.success).toBe(false);
      expect(res.body.data.errors).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
      expect(await count('sip_endpoint')).toBe(before);
    });

    it('updates only the fields sent; a new number is normalised; a taken one is a 409 changing nothing', async () => {
      const id = await createSipEndpoint(t, { number: '+78123456789', title: 'СПб' });
      const other = await createSipEndpoint(t, { number: '+12025550123', title: 'New York' });
      const before = (await get(`/v2/sip-endpoint/detail/${id}/`)).body.data;
      expect((await post(`/v2/sip-endpoint/update/${id}/`, { isActive: false, id: 3 }).expect(200)).body).toEqual({ success: true, message: '', data: [] });
      const after = (await get(`/v2/sip-endpoint/detail/${id}/`)).body.data;
      expect({ ...after, updatedAt: before.updatedAt }).toEqual({ ...before, isActive: false });

      await post(`/v2/sip-endpoint/update/${id}`, { number: '7 812 345 67 80' }).expect(200);
      expect((await get(`/v2/sip-endpoint/detail/${id}/`)).body.data.number).toBe('+78123456780');
      // Its own number again is fine.
      await post(`/v2/sip-endpoint/update/${id}`, { number: '+78123456780', title: 'СПб' }).expect(200);

      const res = await post(`/v2/sip-endpoint/update/${id}/`, { number: '+1 202 555 0123', title: 'Changed' }).expect(409);
      expect(res.body).toEqual({ success: false, message: expect.any(String), data: [] });
      expect((await get(`/v2/sip-endpoint/detail/${id}/`)).body.data).toMatchObject({ number: '+78123456780', title: 'СПб' });
      expect((await get(`/v2/sip-endpoint/detail/${other}/`)).body.data.number).toBe('+12025550123');
      // A missing endpoint is a 404 even when the number is taken.
      await post('/v2/sip-endpoint/update/2147483647/', { number: '+1 202 555 0123' }).expect(404);

      for (const body of [{ number: 'bad', title: 'Changed' }, { title: '' }, { title: null }, { isActive: 1 }, { number: null }]) {
        await post(`/v2/sip-endpoint/update/${id}/`, body).expect(400);
      }
      expect((await get(`/v2/sip-endpoint/detail/${id}/`)).body.data).toMatchObject({ number: '+78123456780', title: 'СПб', isActive: false });
    });

    it('answers 404 for unknown ids and 400 for bad ids', async () => {
      expect((await get('/v2/sip-endpoint/detail/2147483647/').expect(404)).body).toEqual({ success: false, message: expect.any(String), data: [] });
      await post('/v2/sip-endpoint/update/2147483647/', { title: 'x' }).expect(404);
      for (const bad of ['0', '-1', 'abc', '99999999999999999999']) {
        await get(`/v2/sip-endpoint/detail/${bad}/`).expect(400);
        await post(`/v2/sip-endpoint/update/${bad}/`, { title: 'x' }).expect(400);
      }
    });

    it('is management only: 403 for an api-only key', async () => {
      for (const res of [
        await get('/v2/sip-endpoint/', apiOnly),
        await get('/v2/sip-endpoint/detail/1/', apiOnly),
        await post('/v2/sip-endpoint/create/', { number: uniquePhone(), title: 'x' }, apiOnly),
        await post('/v2/sip-endpoint/update/1/', { title: 'x' }, apiOnly),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ success: false, message: expect.stringContaining("'admin'"), data: [] });
      }
    });

    it('pages by id and filters by isActive', async () => {
      await t.ds.query(`TRUNCATE sip_endpoint CASCADE`);
      for (let i = 0; i < 5; i++) await createSipEndpoint(t, { isActive: i !== 2 });
      const all = await walk('/v2/sip-endpoint/', 2, 5);
      expect(all).toHaveLength(5);
      expect((await get('/v2/sip-endpoint/?isActive=false').expect(200)).body.data.total).toBe(1);
      expect((await get('/v2/sip-endpoint/?isActive=1').expect(200)).body.data.total).toBe(4);
      await get('/v2/sip-endpoint/?isActive=maybe').expect(400);
      await get('/v2/sip-endpoint/?limit=101').expect(400);
      await get('/v2/sip-endpoint/?offset=-1').expect(400);
    });
  });

  describe('call scenarios', () => {
    it('creates with defaults; detail and list show exact types', async () => {
      const res = await post('/v2/call-scenario/create/', { title: 'Квалификация лида', createdAt: 'x', id: 9 }).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: { id: expect.any(Number) } });
      const id = res.body.data.id;
      const detail = (await get(`/v2/call-scenario/detail/${id}`).expect(200)).body;
      expect(detail).toEqual({
        success: true,
        message: '',
        data: { id, title: 'Квалификация лида', description: '', isActive: true, createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) },
      });
      expect((await get('/v2/call-scenario/').expect(200)).body.data.list).toContainEqual(detail.data);
      const full = await createCallScenario(t, { title: 'Возврат', description: 'Вернуть клиента', isActive: false });
      expect((await get(`/v2/call-scenario/detail/${full}/`)).body.data).toMatchObject({ description: 'Вернуть клиента', isActive: false });
    });

    it.each([
      ['missing title', {}, 'title'],
      ['empty title', { title: '' }, 'title'],
      ['blank title', { title: '\t ' }, 'title'],
      ['title not a string', { title: 1 }, 'title'],
      ['title too long', { title: 'x'.repeat(256) }, 'title'],
      ['description not a string', { title: 'x', description: 5 }, 'description'],
      ['description null', { title: 'x', description: null }, 'description'],
      ['description too long', { title: 'x', description: 'x'.repeat(10_001) }, 'description'],
      ['isActive not a bool', { title: 'x', isActive: 'true' }, 'isActive'],
    ])('rejects %s with 400, storing nothing', async (_case, body, field) => {
      const before = await count('call_scenario');
      const res = await post('/v2/call-scenario/create/', body).expect(400);
      expect(res.body.data.errors).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
      expect(await count('call_scenario')).toBe(before);
    });

    it('updates only the fields sent and rejects bad ones changing nothing', async () => {
      const id = await createCallScenario(t, { title: 'Старый', description: 'Описание' });
      const before = (await get(`/v2/call-scenario/detail/${id}/`)).body.data;
      expect((await post(`/v2/call-scenario/update/${id}/`, { title: 'Новый' }).expect(200)).body).toEqual({ success: true, message: '', data: [] });
      const after = (await get(`/v2/call-scenario/detail/${id}/`)).body.data;
      expect({ ...after, updatedAt: before.updatedAt }).toEqual({ ...before, title: 'Новый' });
      await post(`/v2/call-scenario/update/${id}/`, { description: '', isActive: false }).expect(200);
      expect((await get(`/v2/call-scenario/detail/${id}/`)).body.data).toMatchObject({ title: 'Новый', description: '', isActive: false });
      for (const body of [{ title: '', description: 'changed' }, { title: null }, { isActive: null }, { description: 7 }]) {
        await post(`/v2/call-scenario/update/${id}/`, body).expect(400);
      }
      expect((await get(`/v2/call-scenario/detail/${id}/`)).body.data).toMatchObject({ title: 'Новый', description: '', isActive: false });
    });

    it('answers 404/400 for unknown/bad ids and 403 for an api-only key', async () => {
      await get('/v2/call-scenario/detail/2147483647/').expect(404);
      await post('/v2/call-scenario/update/2147483647/', { title: 'x' }).expect(404);
      await get('/v2/call-scenario/detail/0/').expect(400);
      await post('/v2/call-scenario/update/abc/', {}).expect(400);
      await get('/v2/call-scenario/', apiOnly).expect(403);
      await get('/v2/call-scenario/detail/1/', apiOnly).expect(403);
      await post('/v2/call-scenario/create/', { title: 'x' }, apiOnly).expect(403);
      await post('/v2/call-scenario/update/1/', { title: 'x' }, apiOnly).expect(403);
    });

    it('pages by id and filters by isActive', async () => {
      await t.ds.query(`TRUNCATE call_scenario CASCADE`);
      for (let i = 0; i < 5; i++) await createCallScenario(t, { isActive: i < 3 });
      await walk('/v2/call-scenario/', 2, 5);
      await walk('/v2/call-scenario/?isActive=true', 2, 3);
      expect((await get('/v2/call-scenario/?isActive=0').expect(200)).body.data.total).toBe(2);
      await get('/v2/call-scenario/?limit=0').expect(400);
    });
  });

  describe('call attempt groups', () => {
    const defaults = async () => (await t.ds.query(`SELECT id FROM call_attempt_group WHERE is_default ORDER BY id`)).map((r: { id: number }) => r.id);
    beforeEach(async () => {
      await t.ds.query(`TRUNCATE call_attempt_group CASCADE`);
    });

    it('makes the first group the default even when asked not to; detail has every field', async () => {
      const res = await post('/v2/call-attempt/create/', {
        title: 'Стандартный',
        intervals: [5, 30, 120, 1440],
        isDefault: false,
        id: 4,
        createdAt: 'x',
      }).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: { id: expect.any(Number) } });
      const id = res.body.data.id;
      const detail = (await get(`/v2/call-attempt/detail/${id}/`).expect(200)).body;
      expect(detail).toEqual({
        success: true,
        message: '',
        data: {
          id,
          title: 'Стандартный',
          intervals: [5, 30, 120, 1440],
          isDefault: true,
          resetAttemptsEnabled: false,
          repeatLastInterval: false,
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
        },
      });
      const second = await createCallAttemptGroup(t, { intervals: [15, 60], resetAttemptsEnabled: true, repeatLastInterval: true });
      expect((await get(`/v2/call-attempt/detail/${second}/`)).body.data).toMatchObject({
        intervals: [15, 60],
        isDefault: false,
        resetAttemptsEnabled: true,
        repeatLastInterval: true,
      });
      expect(await defaults()).toEqual([id]);
      const third = await createCallAttemptGroup(t, { isDefault: true, intervals: [] });
      expect(await defaults()).toEqual([third]);
      expect((await get(`/v2/call-attempt/detail/${third}/`)).body.data.intervals).toEqual([]);
    });

    it.each([
      ['missing title', { intervals: [5] }, 'title'],
      ['blank title', { title: ' ', intervals: [5] }, 'title'],
      ['title too long', { title: 'x'.repeat(256), intervals: [5] }, 'title'],
      ['missing intervals', { title: 'x' }, 'intervals'],
      ['intervals not an array', { title: 'x', intervals: 5 }, 'intervals'],
      ['interval zero', { title: 'x', intervals: [5, 0] }, 'intervals'],
      ['interval negative', { title: 'x', intervals: [-5] }, 'intervals'],
      ['interval fractional', { title: 'x', intervals: [1.5] }, 'intervals'],
      ['interval as string', { title: 'x', intervals: ['5'] }, 'intervals'],
      ['interval over 30 days', { title: 'x', intervals: [43_201] }, 'intervals'],
      ['too many intervals', { title: 'x', intervals: Array.from({ length: 51 }, () => 10) }, 'intervals'],
      ['isDefault not a bool', { title: 'x', intervals: [5], isDefault: 'true' }, 'isDefault'],
      ['resetAttemptsEnabled null', { title: 'x', intervals: [5], resetAttemptsEnabled: null }, 'resetAttemptsEnabled'],
      ['repeatLastInterval a number', { title: 'x', intervals: [5], repeatLastInterval: 1 }, 'repeatLastInterval'],
    ])('rejects %s on create with 400, storing nothing', async (_case, body, field) => {
      await createCallAttemptGroup(t);
      const res = await post('/v2/call-attempt/create/', body).expect(400);
      expect(res.body.data.errors).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
      expect(await count('call_attempt_group')).toBe(1);
    });

    it('accepts the limits: 50 intervals of 1..43200 minutes', async () => {
      const id = await createCallAttemptGroup(t, { intervals: [1, ...Array.from({ length: 48 }, () => 60), 43_200] });
      expect((await get(`/v2/call-attempt/detail/${id}/`)).body.data.intervals).toHaveLength(50);
    });

    it('updates only the fields sent with the api scope (the documented endpoint)', async () => {
      const id = await createCallAttemptGroup(t, { title: 'Было', intervals: [5, 30] });
      const before = (await get(`/v2/call-attempt/detail/${id}/`)).body.data;
      const res = await post(`/v2/call-attempt/update/${id}/`, { intervals: [10, 20, 40], id: 99, updatedAt: 'x' }, apiOnly).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: [] });
      const after = (await get(`/v2/call-attempt/detail/${id}/`)).body.data;
      expect({ ...after, updatedAt: before.updatedAt }).toEqual({ ...before, intervals: [10, 20, 40] });
      await post(`/v2/call-attempt/update/${id}`, { title: 'Стало', resetAttemptsEnabled: true, repeatLastInterval: true }, apiOnly).expect(200);
      expect((await get(`/v2/call-attempt/detail/${id}/`)).body.data).toMatchObject({
        title: 'Стало',
        intervals: [10, 20, 40],
        resetAttemptsEnabled: true,
        repeatLastInterval: true,
        isDefault: true,
      });
      await post(`/v2/call-attempt/update/${id}`, {}, apiOnly).expect(200);
    });

    it('moves the default with isDefault: true, clearing the old one in the same transaction', async () => {
      const a = await createCallAttemptGroup(t);
      const b = await createCallAttemptGroup(t);
      expect(await defaults()).toEqual([a]);
      await post(`/v2/call-attempt/update/${b}/`, { isDefault: true }).expect(200);
      expect(await defaults()).toEqual([b]);
      expect((await get(`/v2/call-attempt/detail/${a}/`)).body.data.isDefault).toBe(false);
      // Setting it again is a no-op; false on a non-default group is a no-op.
      await post(`/v2/call-attempt/update/${b}/`, { isDefault: true }).expect(200);
      await post(`/v2/call-attempt/update/${a}/`, { isDefault: false }).expect(200);
      expect(await defaults()).toEqual([b]);
    });

    it('refuses to unset the only default (400) and changes nothing else in that request', async () => {
      const a = await createCallAttemptGroup(t, { title: 'Default' });
      await createCallAttemptGroup(t);
      const res = await post(`/v2/call-attempt/update/${a}/`, { isDefault: false, title: 'Renamed' }).expect(400);
      expect(res.body).toEqual({
        success: false,
        message: expect.stringContaining('exactly one group must be default'),
        data: { errors: [{ field: 'isDefault', message: expect.stringContaining('exactly one group must be default') }] },
      });
      expect((await get(`/v2/call-attempt/detail/${a}/`)).body.data).toMatchObject({ title: 'Default', isDefault: true });
    });

    it('keeps exactly one default under concurrent switches', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) ids.push(await createCallAttemptGroup(t));
      const results = await Promise.all(ids.map((id) => post(`/v2/call-attempt/update/${id}/`, { isDefault: true })));
      expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
      expect(await defaults()).toHaveLength(1);
      const creates = await Promise.all([1, 2, 3, 4].map(() => post('/v2/call-attempt/create/', { title: 'c', intervals: [5], isDefault: true })));
      expect(creates.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(await defaults()).toHaveLength(1);
    });

    it('makes exactly one of several concurrent first creates the default', async () => {
      const creates = await Promise.all([1, 2, 3, 4].map((i) => post('/v2/call-attempt/create/', { title: `first ${i}`, intervals: [5] })));
      expect(creates.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(await defaults()).toHaveLength(1);
    });

    it.each([
      [{ title: '' }, 'title'],
      [{ title: null }, 'title'],
      [{ intervals: [0] }, 'intervals'],
      [{ intervals: null }, 'intervals'],
      [{ intervals: [50000] }, 'intervals'],
      [{ isDefault: null }, 'isDefault'],
      [{ isDefault: 'yes' }, 'isDefault'],
      [{ resetAttemptsEnabled: 'true' }, 'resetAttemptsEnabled'],
      [{ repeatLastInterval: 0 }, 'repeatLastInterval'],
    ])('rejects update %j with 400, changing nothing', async (body, field) => {
      const id = await createCallAttemptGroup(t, { title: 'Same', intervals: [5] });
      const before = (await get(`/v2/call-attempt/detail/${id}/`)).body.data;
      const res = await post(`/v2/call-attempt/update/${id}/`, body).expect(400);
      expect(res.body.data.errors).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
      expect((await get(`/v2/call-attempt/detail/${id}/`)).body.data).toEqual(before);
    });

    it('answers 404 for unknown ids and 400 for bad ids', async () => {
      expect((await post('/v2/call-attempt/update/2147483647/', { title: 'x' }).expect(404)).body).toEqual({
        success: false,
        message: expect.any(String),
        data: [],
      });
      await get('/v2/call-attempt/detail/2147483647/').expect(404);
      for (const bad of ['0', '-1', 'abc', '2147483648']) {
        const res = await post(`/v2/call-attempt/update/${bad}/`, {}).expect(400);
        expect(res.body.data.errors[0].field).toBe('id');
        await get(`/v2/call-attempt/detail/${bad}/`).expect(400);
      }
    });

    it('keeps create, list and detail for the admin scope', async () => {
      const id = await createCallAttemptGroup(t);
      for (const res of [
        await post('/v2/call-attempt/create/', { title: 'x', intervals: [5] }, apiOnly),
        await get('/v2/call-attempt/', apiOnly),
        await get(`/v2/call-attempt/detail/${id}/`, apiOnly),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ success: false, message: expect.stringContaining("'admin'"), data: [] });
      }
      await request(t.http).post(`/v2/call-attempt/update/${id}/`).send({}).expect(401);
    });

    it('pages by id', async () => {
      for (let i = 0; i < 5; i++) await createCallAttemptGroup(t);
      const items = await walk('/v2/call-attempt/', 2, 5);
      expect(items.filter((g) => g.isDefault)).toHaveLength(1);
      await get('/v2/call-attempt/?limit=101').expect(400);
    });
  });

  describe('demo data', () => {
    it('seeds numbers 1-3, the lead qualification scenario and attempt groups 1 (default) and 2', async () => {
      await t.ds.query(`TRUNCATE sip_endpoint, call_scenario, call_attempt_group RESTART IDENTITY CASCADE`);
      const steps = [sipEndpointsDemoSeed, callScenariosDemoSeed, callAttemptGroupsDemoSeed];
      // Registered with the seeder as reference data (order 10); run here on their own, without other domains' steps.
      const registered = await pendingDemoSteps(t);
      for (const step of steps)
        expect({ name: step.name, registered: registered.includes(step.name), order: step.order }).toEqual({ name: step.name, registered: true, order: 10 });
      for (const step of steps) await t.ds.transaction((m) => step.run(m));
      const numbers = (await get('/v2/sip-endpoint/').expect(200)).body.data.list;
      expect(numbers.slice(0, 3).map((n: { id: number; number: string }) => [n.id, n.number])).toEqual([
        [1, '+74951234567'],
        [2, '+78123456789'],
        [3, '+442071234567'],
      ]);
      expect((await get('/v2/call-scenario/detail/1/').expect(200)).body.data.title).toBe('Квалификация лида');
      expect((await get('/v2/call-attempt/detail/1/').expect(200)).body.data).toMatchObject({ intervals: [5, 30, 120, 1440], isDefault: true });
      expect((await get('/v2/call-attempt/detail/2/').expect(200)).body.data).toMatchObject({
        intervals: [15, 60],
        isDefault: false,
        repeatLastInterval: true,
        resetAttemptsEnabled: true,
      });
    });
  });
});
