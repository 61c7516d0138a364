import request from 'supertest';
import { agentGroupsDemoSeed } from '../src/modules/agent-groups/agent-groups.seed';
import { usersDemoSeed } from '../src/modules/users/users.seed';
import { createAgentGroup, createUser } from './factories/reference';
import { pendingDemoSteps } from './support/demo-steps';
import { createTestApp, TestApp } from './support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const SHORT = /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/;

describe('agent groups', () => {
  let t: TestApp;
  let apiOnly: string;
  let agents: number[];
  const get = (path: string, key = t.apiKey) => request(t.http).get(path).set('X-Api-Key', key);
  const post = (path: string, body: unknown, key = t.apiKey) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', key)
      .send(body as object);
  const counts = async () =>
    (await t.ds.query(`SELECT (SELECT count(*)::int FROM agent_group) AS groups, (SELECT count(*)::int FROM agent_group_member) AS members`))[0];

  beforeAll(async () => {
    t = await createTestApp();
    apiOnly = await t.keyWith('api');
    agents = [];
    for (let i = 0; i < 4; i++) agents.push(await createUser(t, { accessGroup: 'call-center' }));
  });
  afterAll(async () => {
    await t.close();
  });

  describe('create and detail', () => {
    it('creates a group with members; detail has the detail form with exact types', async () => {
      const res = await post('/v2/agent-group/create/', {
        names: { ru: 'Продажи', gb: 'Sales', de: 'Verkauf' },
        agentIds: [agents[2], agents[0], agents[2]],
        id: 77,
        createdBy: 5,
        updatedBy: 5,
        createdAt: '01.01.2000 00:00',
      }).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: { id: expect.any(Number) } });
      const id = res.body.data.id;
      expect(id).not.toBe(77);
      const detail = await get(`/v2/agent-group/${id}/`, apiOnly).expect(200);
      expect(detail.body).toEqual({
        success: true,
        message: '',
        data: {
          id,
          names: { ru: 'Продажи', gb: 'Sales' },
          agentIds: [agents[0], agents[2]],
          createdBy: 0,
          updatedBy: 0,
          createdAt: expect.stringMatching(SHORT),
          updatedAt: expect.stringMatching(SHORT),
        },
      });
      expect(detail.body.data.createdAt).not.toContain('2000');
      // Also without the trailing slash.
      await get(`/v2/agent-group/${id}`).expect(200);
    });

    it('creates a group without agents', async () => {
      const res = await post('/v2/agent-group/create', { names: { ru: 'Пустая', gb: 'Empty' } }).expect(200);
      const detail = (await get(`/v2/agent-group/${res.body.data.id}/`).expect(200)).body.data;
      expect(detail.agentIds).toEqual([]);
    });

    it('rejects unknown agent ids with 400 naming them, storing nothing', async () => {
      const before = await counts();
      const res = await post('/v2/agent-group/create/', { names: { ru: 'А', gb: 'A' }, agentIds: [agents[0], 2147483000, 999999] }).expect(400);
      expect(res.body).toEqual({
        success: false,
        message: expect.stringContaining('999999, 2147483000'),
        data: { errors: [{ field: 'agentIds', message: 'unknown user ids: 999999, 2147483000' }] },
      });
      expect(await counts()).toEqual(before);
    });

    it.each([
      ['missing names', { agentIds: [] }, 'names'],
      ['names a string', { names: 'Sales' }, 'names'],
      ['names an array', { names: ['Продажи', 'Sales'] }, 'names'],
      ['names null', { names: null }, 'names'],
      ['missing ru', { names: { gb: 'Sales' } }, 'names.ru'],
      ['missing gb', { names: { ru: 'Продажи' } }, 'names.gb'],
      ['empty ru', { names: { ru: '', gb: 'Sales' } }, 'names.ru'],
      ['blank gb', { names: { ru: 'Продажи', gb: '   ' } }, 'names.gb'],
      ['ru too long', { names: { ru: 'я'.repeat(256), gb: 'Sales' } }, 'names.ru'],
      ['gb a number', { names: { ru: 'Продажи', gb: 5 } }, 'names.gb'],
      ['agentIds not an array', { names: { ru: 'a', gb: 'b' }, agentIds: 5 }, 'agentIds'],
      ['agentIds null', { names: { ru: 'a', gb: 'b' }, agentIds: null }, 'agentIds'],
      ['agentIds with a string', { names: { ru: 'a', gb: 'b' }, agentIds: ['1'] }, 'agentIds'],
      ['agentIds with zero', { names: { ru: 'a', gb: 'b' }, agentIds: [0] }, 'agentIds'],
      ['agentIds with a negative', { names: { ru: 'a', gb: 'b' }, agentIds: [-3] }, 'agentIds'],
      ['agentIds beyond int32', { names: { ru: 'a', gb: 'b' }, agentIds: [2147483648] }, 'agentIds'],
      ['agentIds fractional', { names: { ru: 'a', gb: 'b' }, agentIds: [1.5] }, 'agentIds'],
      ['too many agentIds', { names: { ru: 'a', gb: 'b' }, agentIds: Array.from({ length: 1001 }, (_, i) => i + 1) }, 'agentIds'],
    ])('rejects %s with 400, storing nothing', async (_case, body, field) => {
      const before = await counts();
      const res = await post('/v2/agent-group/create/', body).expect(400);
      expect(res.body.success).toBe(false);
      expect(res.body.data.errors).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
      expect(await counts()).toEqual(before);
    });

    it('answers 404 for an unknown group and 400 for bad ids', async () => {
      const res = await get('/v2/agent-group/2147483647/').expect(404);
      expect(res.body).toEqual({ success: false, message: expect.any(String), data: [] });
      for (const bad of ['0', '-1', 'abc', '2147483648', '99999999999999999999']) {
        const r = await get(`/v2/agent-group/${bad}/`).expect(400);
        expect(r.body.data.errors[0].field).toBe('id');
      }
    });

    it('needs the admin scope to manage and a key to read', async () => {
      const id = await createAgentGroup(t);
      const res = await post('/v2/agent-group/create/', { names: { ru: 'a', gb: 'b' } }, apiOnly).expect(403);
      expect(res.body).toEqual({ success: false, message: expect.stringContaining("'admin'"), data: [] });
      await post(`/v2/agent-group/update/${id}/`, { names: { gb: 'x' } }, apiOnly).expect(403);
      await request(t.http).get(`/v2/agent-group/${id}/`).expect(401);
      await request(t.http).get('/v2/agent-group/').expect(401);
    });
  });

  describe('update', () => {
    it('merges names per language and leaves members alone when agentIds is absent', async () => {
      const id = await createAgentGroup(t, { names: { ru: 'Поддержка', gb: 'Support' }, agentIds: [agents[1]] });
      const res = await post(`/v2/agent-group/update/${id}/`, { names: { gb: 'Customer care' }, createdBy: 9, id: 1 }).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: [] });
      const detail = (await get(`/v2/agent-group/${id}/`)).body.data;
      expect(detail).toMatchObject({ id, names: { ru: 'Поддержка', gb: 'Customer care' }, agentIds: [agents[1]], createdBy: 0, updatedBy: 0 });
    });

    it('replaces the membership with agentIds (and empties it with [])', async () => {
      const id = await createAgentGroup(t, { agentIds: [agents[0], agents[1]] });
      await post(`/v2/agent-group/update/${id}`, { agentIds: [agents[3], agents[2], agents[3]] }).expect(200);
      const detail = (await get(`/v2/agent-group/${id}/`)).body.data;
      expect(detail.agentIds).toEqual([agents[2], agents[3]]);
      await post(`/v2/agent-group/update/${id}`, { agentIds: [] }).expect(200);
      expect((await get(`/v2/agent-group/${id}/`)).body.data.agentIds).toEqual([]);
    });

    it('accepts an empty body', async () => {
      const id = await createAgentGroup(t, { names: { ru: 'Как было', gb: 'As is' }, agentIds: [agents[0]] });
      const before = (await get(`/v2/agent-group/${id}/`)).body.data;
      await post(`/v2/agent-group/update/${id}/`, {}).expect(200);
      const after = (await get(`/v2/agent-group/${id}/`)).body.data;
      expect({ ...after, updatedAt: before.updatedAt }).toEqual(before);
    });

    it('rejects unknown agents or bad names with 400 and changes nothing (names included)', async () => {
      const id = await createAgentGroup(t, { names: { ru: 'Стабильная', gb: 'Stable' }, agentIds: [agents[0]] });
      const before = (await get(`/v2/agent-group/${id}/`)).body.data;
      const res = await post(`/v2/agent-group/update/${id}/`, { names: { ru: 'Новая' }, agentIds: [agents[1], 123456] }).expect(400);
      expect(res.body.data.errors).toEqual([{ field: 'agentIds', message: 'unknown user ids: 123456' }]);
      for (const body of [{ names: { ru: '' } }, { names: null }, { names: 'x' }, { agentIds: null }, { agentIds: [0] }, { names: { gb: null } }]) {
        await post(`/v2/agent-group/update/${id}/`, body).expect(400);
      }
      expect((await get(`/v2/agent-group/${id}/`)).body.data).toEqual(before);
    });

    it('answers 404 for an unknown group (even with unknown agents) and 400 for bad ids', async () => {
      const res = await post('/v2/agent-group/update/2147483647/', { agentIds: [999999] }).expect(404);
      expect(res.body).toEqual({ success: false, message: expect.any(String), data: [] });
      await post('/v2/agent-group/update/0/', {}).expect(400);
      await post('/v2/agent-group/update/abc/', {}).expect(400);
    });
  });

  describe('list', () => {
    let a: number[];
    beforeAll(async () => {
      await t.ds.query(`TRUNCATE agent_group CASCADE`);
      a = agents;
      // 7 groups; agent a[0] in groups 1, 3, 5, 7; agent a[1] in group 2 only; a[3] in none.
      for (let i = 1; i <= 7; i++) {
        const members = [...(i % 2 === 1 ? [a[0]] : []), ...(i === 2 ? [a[1]] : []), a[2]];
        await createAgentGroup(t, { names: { ru: `Группа ${i}`, gb: `Group ${i}` }, agentIds: members });
      }
    });

    it('walks the pages with next and total; items have the list form (scope api)', async () => {
      const seen: number[] = [];
      let offset = 0;
      for (;;) {
        const res = await get(`/v2/agent-group/?offset=${offset}&limit=3`, apiOnly).expect(200);
        const { list, next, total } = res.body.data;
        expect(total).toBe(7);
        expect(next).toBe(offset + list.length);
        for (const g of list) {
          expect(g).toEqual({
            id: expect.any(Number),
            names: { ru: expect.any(String), gb: expect.any(String) },
            agentIds: expect.any(Array),
            createdAt: expect.stringMatching(ISO),
            updatedAt: expect.stringMatching(ISO),
          });
          expect(g.agentIds).toContain(a[2]);
        }
        seen.push(...list.map((g: { id: number }) => g.id));
        if (list.length === 0 || next === total) break;
        offset = next;
      }
      expect(seen).toHaveLength(7);
      expect([...seen].sort((x, y) => x - y)).toEqual(seen);
      expect((await get('/v2/agent-group/?offset=7').expect(200)).body.data).toEqual({ list: [], next: 7, total: 7 });
      expect((await get('/v2/agent-group/?offset=100').expect(200)).body.data).toEqual({ list: [], next: 100, total: 7 });
      const all = (await get('/v2/agent-group').expect(200)).body.data;
      expect(all.list).toHaveLength(7);
      expect(all.list[1].agentIds).toEqual([a[1], a[2]].sort((x, y) => x - y));
    });

    it('filters by agentId; total counts the filtered groups; every member is still listed', async () => {
      const page = (await get(`/v2/agent-group/?agentId=${a[0]}&limit=3`).expect(200)).body.data;
      expect(page.total).toBe(4);
      expect(page.next).toBe(3);
      expect(page.list.map((g: { names: { gb: string } }) => g.names.gb)).toEqual(['Group 1', 'Group 3', 'Group 5']);
      expect(page.list[0].agentIds).toEqual([a[0], a[2]].sort((x, y) => x - y));
      const rest = (await get(`/v2/agent-group/?agentId=${a[0]}&limit=3&offset=3`).expect(200)).body.data;
      expect(rest).toMatchObject({ next: 4, total: 4 });
      expect(rest.list.map((g: { names: { gb: string } }) => g.names.gb)).toEqual(['Group 7']);
      expect((await get(`/v2/agent-group/?agentId=${a[1]}`).expect(200)).body.data.total).toBe(1);
      expect((await get(`/v2/agent-group/?agentId=${a[3]}`).expect(200)).body.data).toEqual({ list: [], next: 0, total: 0 });
      expect((await get('/v2/agent-group/?agentId=2147483647').expect(200)).body.data.total).toBe(0);
    });

    it.each([
      ['agentId=0', 'agentId'],
      ['agentId=-1', 'agentId'],
      ['agentId=abc', 'agentId'],
      ['agentId=2147483648', 'agentId'],
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['offset=-5', 'offset'],
    ])('rejects %s with 400', async (qs, field) => {
      const res = await get(`/v2/agent-group/?${qs}`).expect(400);
      expect(res.body.data.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    });

    it('loads the members of a whole page in a bounded number of queries', async () => {
      // Every statement, raw or from a TypeORM repository, runs on a query runner of this data source.
      const queries: string[] = [];
      const original = t.ds.createQueryRunner.bind(t.ds);
      t.ds.createQueryRunner = (...args: Parameters<typeof t.ds.createQueryRunner>) => {
        const runner = original(...args);
        const query = runner.query.bind(runner);
        runner.query = ((sql: string, ...rest: unknown[]) => {
          queries.push(sql);
          return (query as (...a: unknown[]) => unknown)(sql, ...rest);
        }) as typeof runner.query;
        return runner;
      };
      try {
        const res = await get('/v2/agent-group/?limit=100').expect(200);
        expect(res.body.data.list.length).toBe(7);
      } finally {
        t.ds.createQueryRunner = original;
      }
      expect(queries.length).toBeGreaterThan(0);
      expect(queries.filter((q) => /agent_group/.test(q)).length).toBeLessThanOrEqual(3);
    });
  });

  describe('demo data', () => {
    it('seeds three groups with members, named by the demo users', async () => {
      await t.ds.query(`TRUNCATE app_user, agent_group CASCADE`);
      // Registered with the seeder, after the users it names (order 11).
      expect(await pendingDemoSteps(t)).toContain(agentGroupsDemoSeed.name);
      expect(agentGroupsDemoSeed.order).toBe(11);
      // Users first, then groups; run on their own, without other domains' steps.
      await t.ds.transaction((m) => usersDemoSeed.run(m));
      await t.ds.transaction((m) => agentGroupsDemoSeed.run(m));
      const groups = (await get('/v2/agent-group/').expect(200)).body.data;
      const gb = groups.list.map((g: { names: { gb: string } }) => g.names.gb);
      expect(gb).toEqual(['Sales', 'Support', 'English line']);
      for (const g of groups.list.filter((x: { names: { gb: string } }) => ['Sales', 'Support', 'English line'].includes(x.names.gb))) {
        expect(g.agentIds.length).toBeGreaterThanOrEqual(3);
      }
    });
  });
});
