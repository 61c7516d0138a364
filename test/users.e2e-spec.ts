import request from 'supertest';
import { usersDemoSeed } from '../src/modules/users/users.seed';
import { AVATAR_PLACEHOLDER_URL } from '../src/modules/users/domain/user';
import { createUser } from './factories/reference';
import { pendingDemoSteps } from './support/demo-steps';
import { createTestApp, TestApp } from './support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

describe('users', () => {
  let t: TestApp;
  let apiOnly: string;
  const get = (path: string, key = t.apiKey) => request(t.http).get(path).set('X-Api-Key', key);
  const post = (path: string, body: unknown, key = t.apiKey) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', key)
      .send(body as object);
  const countUsers = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM app_user`))[0].n as number;

  beforeAll(async () => {
    t = await createTestApp();
    apiOnly = await t.keyWith('api');
  });
  afterAll(async () => {
    await t.close();
  });

  describe('create', () => {
    it('creates a user with defaults from the e-mail alone; detail has every field with its JSON type', async () => {
      const res = await post('/v2/user/create/', { email: 'Anna.Smirnova@Example.com' }).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: { id: expect.any(Number) } });
      const detail = await get(`/v2/user/detail/${res.body.data.id}/`, apiOnly).expect(200);
      expect(detail.body).toEqual({
        success: true,
        message: '',
        data: {
          id: res.body.data.id,
          name: null,
          lastName: null,
          email: 'Anna.Smirnova@Example.com',
          isActive: true,
          accessGroup: '',
          webRtcIsEnabled: false,
          interfaceLanguageCode: 'ru',
          languageSkillsCode: [],
          autoAnswer: 0,
          phoneMode: 'default',
          avatar: AVATAR_PLACEHOLDER_URL,
          telegramNotificationsEnabled: false,
          telegramChatId: null,
          telegramNotificationsPriority: null,
          emailNotificationsEnabled: false,
          emailNotificationsPriority: null,
          lastLoginAt: null,
          lastActivityAt: null,
          createdAt: expect.stringMatching(ISO),
        },
      });
      expect(typeof detail.body.data.avatar).toBe('string');
      expect(Object.keys(detail.body.data)).toHaveLength(20);
    });

    it('sets every field; ignores id/createdAt/unknown fields; formats dates', async () => {
      const body = {
        id: 999,
        createdAt: '2000-01-01T00:00:00Z',
        updatedAt: '2000-01-01T00:00:00Z',
        password: 'secret',
        email: 'emily.johnson@example.com',
        name: 'Emily',
        lastName: 'Johnson',
        isActive: false,
        accessGroup: 'call-center',
        webRtcIsEnabled: true,
        interfaceLanguageCode: 'gb',
        languageSkillsCode: ['gb', 'ru', 'gb'],
        autoAnswer: -1,
        phoneMode: 'predictive',
        avatar: 'https://cdn.example.com/u/emily.png',
        telegramNotificationsEnabled: true,
        telegramChatId: '123456789',
        telegramNotificationsPriority: 'urgent',
        emailNotificationsEnabled: true,
        emailNotificationsPriority: 'urgent',
        lastLoginAt: '2026-03-04T08:06:07+03:00',
        lastActivityAt: '2026-03-04 06:00:01',
      };
      const res = await post('/v2/user/create', body).expect(200);
      const id = res.body.data.id;
      expect(id).not.toBe(999);
      const { data } = (await get(`/v2/user/detail/${id}`).expect(200)).body;
      expect(data).toEqual({
        id,
        email: 'emily.johnson@example.com',
        name: 'Emily',
        lastName: 'Johnson',
        isActive: false,
        accessGroup: 'call-center',
        webRtcIsEnabled: true,
        interfaceLanguageCode: 'gb',
        languageSkillsCode: ['gb', 'ru'],
        autoAnswer: -1,
        phoneMode: 'predictive',
        avatar: 'https://cdn.example.com/u/emily.png',
        telegramNotificationsEnabled: true,
        telegramChatId: '123456789',
        telegramNotificationsPriority: 'urgent',
        emailNotificationsEnabled: true,
        emailNotificationsPriority: 'urgent',
        lastLoginAt: '2026-03-04 05:06:07',
        lastActivityAt: '2026-03-04 06:00:01',
        createdAt: expect.stringMatching(ISO),
      });
      expect(data.createdAt).not.toContain('2000');
    });

    it('rejects a duplicate e-mail case-insensitively with 409, storing nothing', async () => {
      await createUser(t, { email: 'dup@example.com' });
      const before = await countUsers();
      const res = await post('/v2/user/create/', { email: 'DUP@Example.COM', name: 'Other' }).expect(409);
      expect(res.body).toEqual({ success: false, message: expect.stringContaining('DUP@Example.COM'), data: [] });
      expect(await countUsers()).toBe(before);
    });

    it.each([
      ['missing email', {}, 'email'],
      ['invalid email', { email: 'not-an-email' }, 'email'],
      ['email not a string', { email: 42 }, 'email'],
      ['email too long', { email: `${'a'.repeat(250)}@example.com` }, 'email'],
      ['name too long', { name: 'x'.repeat(101) }, 'name'],
      ['name not a string', { name: 5 }, 'name'],
      ['isActive as string', { isActive: 'true' }, 'isActive'],
      ['isActive null', { isActive: null }, 'isActive'],
      ['unknown access group', { accessGroup: 'root' }, 'accessGroup'],
      ['access group null', { accessGroup: null }, 'accessGroup'],
      ['webRtcIsEnabled as number', { webRtcIsEnabled: 1 }, 'webRtcIsEnabled'],
      ['interface language', { interfaceLanguageCode: 'en' }, 'interfaceLanguageCode'],
      ['language skills item', { languageSkillsCode: ['ru', 'de'] }, 'languageSkillsCode'],
      ['language skills not array', { languageSkillsCode: 'ru' }, 'languageSkillsCode'],
      ['autoAnswer below -1', { autoAnswer: -2 }, 'autoAnswer'],
      ['autoAnswer above 10', { autoAnswer: 11 }, 'autoAnswer'],
      ['autoAnswer fractional', { autoAnswer: 1.5 }, 'autoAnswer'],
      ['autoAnswer as string', { autoAnswer: '5' }, 'autoAnswer'],
      ['phone mode', { phoneMode: 'silent' }, 'phoneMode'],
      ['avatar not a URL', { avatar: 'picture.png' }, 'avatar'],
      ['avatar ftp', { avatar: 'ftp://example.com/a.png' }, 'avatar'],
      ['telegram chat id empty', { telegramChatId: '' }, 'telegramChatId'],
      ['telegram chat id number', { telegramChatId: 123 }, 'telegramChatId'],
      ['telegram priority', { telegramNotificationsPriority: 'high' }, 'telegramNotificationsPriority'],
      ['email priority', { emailNotificationsPriority: 'low' }, 'emailNotificationsPriority'],
      ['email notifications flag', { emailNotificationsEnabled: 'yes' }, 'emailNotificationsEnabled'],
      ['telegram notifications flag', { telegramNotificationsEnabled: null }, 'telegramNotificationsEnabled'],
      ['last login date', { lastLoginAt: 'yesterday' }, 'lastLoginAt'],
      ['last login impossible date', { lastLoginAt: '2026-02-30 10:00:00' }, 'lastLoginAt'],
      ['last activity number', { lastActivityAt: 1772600767 }, 'lastActivityAt'],
    ])('rejects %s with 400 naming the field, storing nothing', async (_case, fields, field) => {
      const before = await countUsers();
      const body = 'email' in fields || _case === 'missing email' ? fields : { email: `valid-${field}@example.com`, ...fields };
      const res = await post('/v2/user/create/', body).expect(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toEqual(expect.any(String));
      expect(res.body.data.errors).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
      expect(await countUsers()).toBe(before);
    });

    it('needs the admin scope', async () => {
      const res = await post('/v2/user/create/', { email: 'scope@example.com' }, apiOnly).expect(403);
      expect(res.body).toEqual({ success: false, message: expect.stringContaining("'admin'"), data: [] });
      await post('/v2/user/update/1/', { name: 'x' }, apiOnly).expect(403);
      await request(t.http).post('/v2/user/create/').send({ email: 'nokey@example.com' }).expect(401);
    });
  });

  describe('update', () => {
    it('changes only the fields sent; null clears nullable fields', async () => {
      const id = await createUser(t, {
        email: 'partial@example.com',
        name: 'Иван',
        lastName: 'Морозов',
        accessGroup: 'call-center',
        languageSkillsCode: ['ru'],
        telegramChatId: '42',
        telegramNotificationsPriority: 'urgent',
        avatar: 'https://cdn.example.com/a.png',
        lastLoginAt: '2026-01-01 10:00:00',
      });
      const before = (await get(`/v2/user/detail/${id}/`).expect(200)).body.data;
      const res = await post(`/v2/user/update/${id}/`, { lastName: 'Петров', autoAnswer: 7, id: 5, createdAt: '2000-01-01T00:00:00Z', junk: 1 }).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: [] });
      const after = (await get(`/v2/user/detail/${id}/`).expect(200)).body.data;
      expect(after).toEqual({ ...before, lastName: 'Петров', autoAnswer: 7 });

      await post(`/v2/user/update/${id}`, {
        name: null,
        telegramChatId: null,
        telegramNotificationsPriority: null,
        avatar: null,
        lastLoginAt: null,
        accessGroup: '',
      }).expect(200);
      const cleared = (await get(`/v2/user/detail/${id}/`).expect(200)).body.data;
      expect(cleared).toEqual({
        ...after,
        name: null,
        telegramChatId: null,
        telegramNotificationsPriority: null,
        avatar: AVATAR_PLACEHOLDER_URL,
        lastLoginAt: null,
        accessGroup: '',
      });
    });

    it('accepts an empty body as a no-op', async () => {
      const id = await createUser(t);
      const before = (await get(`/v2/user/detail/${id}/`).expect(200)).body.data;
      await post(`/v2/user/update/${id}/`, {}).expect(200);
      expect((await get(`/v2/user/detail/${id}/`).expect(200)).body.data).toEqual(before);
    });

    it('changes the e-mail, and rejects one taken by another user with 409 changing nothing', async () => {
      const a = await createUser(t, { email: 'first@example.com' });
      const b = await createUser(t, { email: 'second@example.com', name: 'B' });
      await post(`/v2/user/update/${a}/`, { email: 'First.New@example.com' }).expect(200);
      expect((await get(`/v2/user/detail/${a}/`)).body.data.email).toBe('First.New@example.com');
      // Its own address in another case is fine.
      await post(`/v2/user/update/${a}/`, { email: 'first.new@example.com' }).expect(200);
      const res = await post(`/v2/user/update/${b}/`, { email: 'FIRST.NEW@example.com', name: 'Changed' }).expect(409);
      expect(res.body).toEqual({ success: false, message: expect.any(String), data: [] });
      const stored = (await get(`/v2/user/detail/${b}/`)).body.data;
      expect(stored).toMatchObject({ email: 'second@example.com', name: 'B' });
      // A missing user is a 404 even when the address is taken.
      await post('/v2/user/update/2147483647/', { email: 'FIRST.NEW@example.com' }).expect(404);
    });

    it('rejects invalid fields with 400 and changes nothing', async () => {
      const id = await createUser(t, { name: 'Keep' });
      const before = (await get(`/v2/user/detail/${id}/`)).body.data;
      for (const body of [
        { name: 'New', email: null },
        { name: 'New', isActive: null },
        { name: 'New', autoAnswer: 20 },
        { name: 'New', email: 'bad' },
        { name: 'New', phoneMode: null },
      ]) {
        const res = await post(`/v2/user/update/${id}/`, body).expect(400);
        expect(res.body.data.errors.length).toBeGreaterThan(0);
      }
      expect((await get(`/v2/user/detail/${id}/`)).body.data).toEqual(before);
    });

    it('answers 404 for an unknown user and 400 for a bad id', async () => {
      const res = await post('/v2/user/update/2147483647/', { name: 'x' }).expect(404);
      expect(res.body).toEqual({ success: false, message: expect.stringContaining('2147483647'), data: [] });
      for (const bad of ['0', '-1', 'abc', '99999999999999999999']) {
        const r = await post(`/v2/user/update/${bad}/`, { name: 'x' }).expect(400);
        expect(r.body.data.errors[0].field).toBe('userId');
      }
    });
  });

  describe('detail', () => {
    it('answers 404 for an unknown id and 400 for bad ids', async () => {
      const res = await get('/v2/user/detail/2147483647/').expect(404);
      expect(res.body).toEqual({ success: false, message: expect.any(String), data: [] });
      for (const bad of ['0', '-1', 'abc', '2147483648', '1.5']) {
        const r = await get(`/v2/user/detail/${bad}/`).expect(400);
        expect(r.body).toEqual({ success: false, message: expect.any(String), data: { errors: [{ field: 'userId', message: expect.any(String) }] } });
      }
    });

    it('needs a key', async () => {
      await request(t.http).get('/v2/user/detail/1/').expect(401);
    });
  });

  describe('list', () => {
    beforeAll(async () => {
      await t.ds.query(`TRUNCATE app_user CASCADE`);
      for (let i = 0; i < 7; i++) await createUser(t, { email: `cc${i}@list.example`, accessGroup: 'call-center', isActive: i % 2 === 0 });
      for (let i = 0; i < 3; i++) await createUser(t, { email: `adm${i}@list.example`, accessGroup: 'admin' });
      await createUser(t, { email: 'nogroup@list.example', isActive: false });
    });

    it('walks the pages in id order with next and total (scope api)', async () => {
      const seen: number[] = [];
      let offset = 0;
      for (;;) {
        const res = await get(`/v2/user/list/?offset=${offset}&limit=4`, apiOnly).expect(200);
        const { list, next, total } = res.body.data;
        expect(total).toBe(11);
        expect(next).toBe(offset + list.length);
        expect(list.length).toBeLessThanOrEqual(4);
        if (list.length === 0) break;
        expect(Object.keys(list[0]).sort()).toEqual(Object.keys((await get(`/v2/user/detail/${list[0].id}/`)).body.data).sort());
        seen.push(...list.map((u: { id: number }) => u.id));
        offset = next;
        if (next === total) {
          const after = await get(`/v2/user/list/?offset=${next}&limit=4`).expect(200);
          expect(after.body.data).toEqual({ list: [], next: total, total });
          break;
        }
      }
      expect(seen).toHaveLength(11);
      expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    });

    it('uses offset 0 and limit 50 by default and accepts the path without slash', async () => {
      const res = await get('/v2/user/list').expect(200);
      expect(res.body.data.list).toHaveLength(11);
      expect(res.body.data.next).toBe(11);
    });

    it('filters by access group and activity; total counts the filtered set', async () => {
      const cc = (await get('/v2/user/list/?accessGroup=call-center&limit=2').expect(200)).body.data;
      expect(cc.total).toBe(7);
      expect(cc.list).toHaveLength(2);
      expect(cc.list.every((u: { accessGroup: string }) => u.accessGroup === 'call-center')).toBe(true);

      for (const [v, expected] of [
        ['true', 4 + 3],
        ['1', 7],
        ['false', 3 + 1],
        ['0', 4],
      ] as const) {
        const res = (await get(`/v2/user/list/?isActive=${v}`).expect(200)).body.data;
        expect(res.total).toBe(expected);
        expect(res.list.every((u: { isActive: boolean }) => u.isActive === (v === 'true' || v === '1'))).toBe(true);
      }
      const both = (await get('/v2/user/list/?accessGroup=call-center&isActive=false').expect(200)).body.data;
      expect(both.total).toBe(3);
      expect((await get('/v2/user/list/?accessGroup=moderator').expect(200)).body.data).toEqual({ list: [], next: 0, total: 0 });
      expect((await get('/v2/user/list/?accessGroup=').expect(200)).body.data.total).toBe(11);
    });

    it.each([
      ['accessGroup=root', 'accessGroup'],
      ['accessGroup[]=admin', 'accessGroup'],
      ['isActive=yes', 'isActive'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=1.5', 'offset'],
    ])('rejects %s with 400', async (qs, field) => {
      const res = await get(`/v2/user/list/?${qs}`).expect(400);
      expect(res.body.data.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    });
  });

  describe('demo data', () => {
    it('seeds about twenty users of every access group', async () => {
      await t.ds.query(`TRUNCATE app_user CASCADE`);
      // Registered with the seeder as reference data (order 10).
      expect(await pendingDemoSteps(t)).toContain(usersDemoSeed.name);
      expect(usersDemoSeed.order).toBe(10);
      // Run on its own, without other domains' steps.
      await t.ds.transaction((m) => usersDemoSeed.run(m));
      const users = (await get('/v2/user/list/?limit=100').expect(200)).body.data;
      expect(users.total).toBeGreaterThanOrEqual(20);
      const groups = new Set(users.list.map((u: { accessGroup: string }) => u.accessGroup));
      for (const g of ['client', 'call-center', 'call-center-senior', 'arbitration', 'moderator', 'admin']) expect(groups).toContain(g);
      expect(users.list.some((u: { isActive: boolean }) => !u.isActive)).toBe(true);
      expect(users.list.some((u: { telegramChatId: string | null }) => u.telegramChatId !== null)).toBe(true);
      expect(users.list.some((u: { languageSkillsCode: string[] }) => u.languageSkillsCode.includes('gb'))).toBe(true);
    });
  });
});
