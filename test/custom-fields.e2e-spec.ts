import request from 'supertest';
import { CustomFieldsService } from '../src/modules/custom-fields/custom-fields.service';
import { createTestApp, TestApp } from './support/test-app';

describe('custom fields', () => {
  let t: TestApp;
  let apiOnly: string;
  const ids: Record<string, number> = {};

  const post = (path: string, body: unknown, key = t.apiKey) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', key)
      .send(body as object);
  const get = (path: string, key = t.apiKey) => request(t.http).get(path).set('X-Api-Key', key);
  const count = async (table: string) => (await t.ds.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

  beforeAll(async () => {
    t = await createTestApp();
    apiOnly = await t.keyWith('api');
  });
  afterAll(async () => {
    await t.close();
  });

  describe('create', () => {
    it('creates a field of every type and answers {id}', async () => {
      const defs = [
        { key: 'city', title: 'Город', type: 'string', essence: 'leads', sort: 10 },
        { key: 'budget', title: 'Бюджет', type: 'int', essence: 'leads', sort: 20 },
        { key: 'area', title: 'Площадь', type: 'float', essence: 'leads', sort: 30 },
        { key: 'visit', title: 'Дата визита', type: 'date', essence: 'leads', sort: 40 },
        { key: 'callback', title: 'Перезвонить в', type: 'datetime', essence: 'leads', sort: 50 },
        { key: 'consent', title: 'Согласие', type: 'bool', essence: 'leads', sort: 60, params: [] },
        {
          key: 'interest',
          title: 'Интерес',
          type: 'select',
          essence: 'leads',
          sort: 70,
          params: [
            { code: 'house', title: 'Дом', sort: 20 },
            { code: 'flat', title: 'Квартира', sort: 10 },
            { code: 'land', title: 'Участок' },
            { code: 'garage', title: 'Гараж', sort: 20 },
          ],
        },
        {
          key: 'channels',
          title: 'Каналы',
          type: 'multiselect',
          essence: 'leads',
          sort: 70,
          params: [
            { code: 'sms', title: 'SMS' },
            { code: 'email', title: 'E-mail' },
          ],
        },
        { key: 'manager', title: 'Менеджер', type: 'string', essence: 'orders' },
        {
          key: 'niche',
          title: 'Ниша',
          type: 'select',
          essence: 'orders',
          sort: 5,
          params: [
            { code: 'real_estate', title: 'Недвижимость' },
            { code: 'edu-1', title: 'Образование' },
          ],
        },
      ];
      for (const { key, ...body } of defs) {
        const res = await post('/v2/custom-field/create/', body).expect(200);
        expect(res.body).toEqual({ success: true, message: '', data: { id: expect.any(Number) } });
        ids[key] = res.body.data.id;
      }
      expect(await count('custom_field')).toBe(defs.length);
    });

    it('answers detail with exact fields and options ordered by sort, then id', async () => {
      const res = await get(`/v2/custom-field/detail/${ids.interest}/`).expect(200);
      expect(res.body).toEqual({
        success: true,
        message: '',
        data: {
          id: ids.interest,
          title: 'Интерес',
          type: 'select',
          essence: 'leads',
          params: [
            { code: 'flat', sort: 10, title: 'Квартира' },
            { code: 'house', sort: 20, title: 'Дом' },
            { code: 'garage', sort: 20, title: 'Гараж' },
            { code: 'land', sort: 100, title: 'Участок' },
          ],
          sort: 70,
        },
      });
      const plain = await get(`/v2/custom-field/detail/${ids.manager}`).expect(200);
      expect(plain.body.data).toEqual({ id: ids.manager, title: 'Менеджер', type: 'string', essence: 'orders', params: [], sort: 100 });
    });

    it.each<[string, object, string]>([
      ['select without params', { title: 'X', type: 'select', essence: 'leads' }, 'params'],
      ['multiselect with []', { title: 'X', type: 'multiselect', essence: 'leads', params: [] }, 'params'],
      ['a bad option code', { title: 'X', type: 'select', essence: 'leads', params: [{ code: 'Big Code', title: 'B' }] }, 'params.0.code'],
      [
        'a duplicate option code',
        {
          title: 'X',
          type: 'select',
          essence: 'leads',
          params: [
            { code: 'a', title: 'A' },
            { code: 'a', title: 'B' },
          ],
        },
        'params.1.code',
      ],
      ['options on a string field', { title: 'X', type: 'string', essence: 'leads', params: [{ code: 'a', title: 'A' }] }, 'params'],
      ['an option without title', { title: 'X', type: 'select', essence: 'leads', params: [{ code: 'a' }] }, 'params.0.title'],
      ['an unknown type', { title: 'X', type: 'text', essence: 'leads' }, 'type'],
      ['an unknown essence', { title: 'X', type: 'string', essence: 'calls' }, 'essence'],
      ['an empty title', { title: '', type: 'string', essence: 'leads' }, 'title'],
      ['a missing title', { type: 'string', essence: 'leads' }, 'title'],
      ['a string sort', { title: 'X', type: 'string', essence: 'leads', sort: '5' }, 'sort'],
      ['a null sort', { title: 'X', type: 'string', essence: 'leads', sort: null }, 'sort'],
      ['params not an array', { title: 'X', type: 'select', essence: 'leads', params: { code: 'a', title: 'A' } }, 'params'],
    ])('rejects %s with 400 and stores nothing', async (_name, body, field) => {
      const before = [await count('custom_field'), await count('custom_field_option')];
      const res = await post('/v2/custom-field/create/', body).expect(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toEqual(expect.any(String));
      expect(res.body.data.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field, message: expect.any(String) })]));
      expect([await count('custom_field'), await count('custom_field_option')]).toEqual(before);
    });

    it('ignores unknown and read-only fields', async () => {
      const res = await post('/v2/custom-field/create/', { id: 999, title: 'Примечание', type: 'string', essence: 'orders', sort: 200, extra: 1 }).expect(200);
      expect(res.body.data.id).not.toBe(999);
      ids.note = res.body.data.id;
    });
  });

  describe('list', () => {
    it('returns the array itself, ordered by sort then id, on both paths', async () => {
      for (const path of ['/v2/custom-field/', '/v2/custom-fields/', '/v2/custom-field', '/v2/custom-fields']) {
        const res = await get(path, apiOnly).expect(200);
        expect(res.body.success).toBe(true);
        expect(Array.isArray(res.body.data)).toBe(true);
        const list = res.body.data as { id: number; sort: number }[];
        expect(list.map((f) => f.id)).toEqual([
          ids.niche,
          ids.city,
          ids.budget,
          ids.area,
          ids.visit,
          ids.callback,
          ids.consent,
          ids.interest,
          ids.channels,
          ids.manager,
          ids.note,
        ]);
      }
      const res = await get('/v2/custom-fields/').expect(200);
      const channels = res.body.data.find((f: { id: number }) => f.id === ids.channels);
      expect(channels).toEqual({
        id: ids.channels,
        title: 'Каналы',
        type: 'multiselect',
        essence: 'leads',
        params: [
          { code: 'sms', sort: 100, title: 'SMS' },
          { code: 'email', sort: 100, title: 'E-mail' },
        ],
        sort: 70,
      });
      const consent = res.body.data.find((f: { id: number }) => f.id === ids.consent);
      expect(consent.params).toEqual([]);
    });

    it('filters by essence', async () => {
      const orders = await get('/v2/custom-fields/?essence=orders').expect(200);
      expect(orders.body.data.map((f: { id: number }) => f.id)).toEqual([ids.niche, ids.manager, ids.note]);
      const leads = await get('/v2/custom-field/?essence=leads').expect(200);
      expect(leads.body.data).toHaveLength(8);
      expect(leads.body.data.every((f: { essence: string }) => f.essence === 'leads')).toBe(true);
    });

    it('treats an empty essence= as no filter', async () => {
      expect((await get('/v2/custom-fields/?essence=')).body).toEqual((await get('/v2/custom-fields/')).body);
    });

    it.each(['calls', 'ORDERS', 'order'])('rejects essence=%p with 400', async (essence) => {
      const res = await get(`/v2/custom-fields/?essence=${essence}`).expect(400);
      expect(res.body).toEqual({ success: false, message: expect.any(String), data: { errors: [expect.objectContaining({ field: 'essence' })] } });
    });
  });

  describe('update', () => {
    it('changes only the fields sent', async () => {
      await post(`/v2/custom-field/update/${ids.manager}/`, { title: 'Менеджер клиента' })
        .expect(200)
        .expect((r) => expect(r.body).toEqual({ success: true, message: '', data: [] }));
      let d = (await get(`/v2/custom-field/detail/${ids.manager}/`)).body.data;
      expect(d).toMatchObject({ title: 'Менеджер клиента', sort: 100, type: 'string', essence: 'orders' });
      await post(`/v2/custom-field/update/${ids.manager}`, { sort: 1 }).expect(200);
      d = (await get(`/v2/custom-field/detail/${ids.manager}/`)).body.data;
      expect(d).toMatchObject({ title: 'Менеджер клиента', sort: 1 });
      await post(`/v2/custom-field/update/${ids.manager}`, {}).expect(200);
      expect((await get(`/v2/custom-field/detail/${ids.manager}/`)).body.data).toEqual(d);
    });

    it('accepts type and essence equal to the stored ones', async () => {
      await post(`/v2/custom-field/update/${ids.manager}/`, { type: 'string', essence: 'orders', sort: 2 }).expect(200);
      expect((await get(`/v2/custom-field/detail/${ids.manager}/`)).body.data.sort).toBe(2);
    });

    it('replaces options by code', async () => {
      await post(`/v2/custom-field/update/${ids.channels}/`, {
        params: [
          { code: 'email', title: 'Электронная почта', sort: 1 },
          { code: 'phone', title: 'Телефон', sort: 2 },
        ],
      }).expect(200);
      const d = (await get(`/v2/custom-field/detail/${ids.channels}/`)).body.data;
      expect(d.params).toEqual([
        { code: 'email', sort: 1, title: 'Электронная почта' },
        { code: 'phone', sort: 2, title: 'Телефон' },
      ]);
      expect(d.title).toBe('Каналы');
    });

    it.each<[string, object, string]>([
      ['a different type', { type: 'int', title: 'Changed' }, 'type'],
      ['a different essence', { essence: 'orders', title: 'Changed' }, 'essence'],
      ['empty options of a select field', { params: [], title: 'Changed' }, 'params'],
      [
        'duplicate option codes',
        {
          params: [
            { code: 'a', title: 'A' },
            { code: 'a', title: 'A2' },
          ],
          title: 'Changed',
        },
        'params.1.code',
      ],
      ['a null title', { title: null, sort: 3 }, 'title'],
      ['a float sort', { sort: 1.5, title: 'Changed' }, 'sort'],
    ])('rejects %s with 400 and changes nothing', async (_name, body, field) => {
      const before = (await get(`/v2/custom-field/detail/${ids.interest}/`)).body.data;
      const res = await post(`/v2/custom-field/update/${ids.interest}/`, body).expect(400);
      expect(res.body.data.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      expect((await get(`/v2/custom-field/detail/${ids.interest}/`)).body.data).toEqual(before);
    });

    it('rejects options for a non-select field', async () => {
      const res = await post(`/v2/custom-field/update/${ids.city}/`, { params: [{ code: 'a', title: 'A' }] }).expect(400);
      expect(res.body.data.errors[0].field).toBe('params');
    });
  });

  describe('not found, bad ids, scopes', () => {
    it('answers 404 for unknown ids', async () => {
      expect((await get('/v2/custom-field/detail/999999/').expect(404)).body).toEqual({ success: false, message: expect.any(String), data: [] });
      await post('/v2/custom-field/update/999999/', { title: 'x' }).expect(404);
    });

    it('answers 400 for bad path ids', async () => {
      for (const bad of ['0', '-1', 'abc', '2147483648']) {
        await get(`/v2/custom-field/detail/${bad}/`).expect(400);
        await post(`/v2/custom-field/update/${bad}/`, { title: 'x' }).expect(400);
      }
    });

    it('requires admin for management, api for the list', async () => {
      const before = await count('custom_field');
      await post('/v2/custom-field/create/', { title: 'X', type: 'string', essence: 'leads' }, apiOnly).expect(403);
      await post(`/v2/custom-field/update/${ids.city}/`, { title: 'X' }, apiOnly).expect(403);
      await get(`/v2/custom-field/detail/${ids.city}/`, apiOnly).expect(403);
      const adminOnly = await t.keyWith('admin');
      await get('/v2/custom-fields/', adminOnly).expect(403);
      await request(t.http).get('/v2/custom-fields/').expect(401);
      expect(await count('custom_field')).toBe(before);
      expect((await get(`/v2/custom-field/detail/${ids.city}/`)).body.data.title).toBe('Город');
    });
  });

  describe('CustomFieldsService.validateValues (used by orders and leads)', () => {
    let svc: CustomFieldsService;
    beforeAll(() => {
      svc = t.app.get(CustomFieldsService);
    });

    it('normalises valid values', async () => {
      const v = await svc.validateValues(
        {
          [ids.city]: 'Москва',
          [ids.budget]: '5000000',
          [ids.visit]: '31.12.2026',
          [ids.consent]: 'true',
          [ids.interest]: 'flat',
          [ids.channels]: 'phone,email',
        },
        'leads',
      );
      expect(v).toEqual({
        ok: true,
        value: {
          [ids.city]: 'Москва',
          [ids.budget]: 5000000,
          [ids.visit]: '2026-12-31',
          [ids.consent]: true,
          [ids.interest]: 'flat',
          [ids.channels]: 'phone,email',
        },
      });
      expect(await svc.validateValues([], 'orders')).toEqual({ ok: true, value: {} });
    });

    it('returns the errors naming each bad entry with the given path (for the caller to merge)', async () => {
      const checked = await svc.validateValues({ [ids.city]: 5, [ids.manager]: 'x', 999999: 'y' }, 'leads', 'fields');
      expect(checked.ok).toBe(false);
      const errors = checked.ok ? [] : checked.errors;
      expect(errors.map((e) => e.field).sort()).toEqual([`fields.${ids.city}`, `fields.${ids.manager}`, 'fields.999999'].sort());
    });

    it("sees this instance's own writes at once despite the cache", async () => {
      expect((await svc.validateValues({ [ids.channels]: 'sms' }, 'leads')).ok).toBe(false);
      await post(`/v2/custom-field/update/${ids.channels}/`, { params: [{ code: 'sms', title: 'SMS' }] }).expect(200);
      await expect(svc.validateValues({ [ids.channels]: 'sms' }, 'leads')).resolves.toEqual({ ok: true, value: { [ids.channels]: 'sms' } });
      const created = await post('/v2/custom-field/create/', { title: 'Новое', type: 'int', essence: 'leads' }).expect(200);
      await expect(svc.validateValues({ [created.body.data.id]: 7 }, 'leads')).resolves.toEqual({ ok: true, value: { [created.body.data.id]: 7 } });
    });
  });
});
