import { AGENT_GROUP_DETAIL, AGENT_GROUP_LIST_ITEM, CUSTOM_FIELD, CUSTOM_FIELD_TYPES, LIST_WRAPPER, USER } from './support/api-contract';
import { contractRequests, createDemoApp } from './support/contract-client';
import { expectEach, expectShape } from './support/shape-check';
import type { TestApp } from './support/test-app';

/** API.md contract of the reference data: users, agent groups, custom fields, call attempt groups. */

describe('API.md contract on the demo dataset', () => {
  let t: TestApp;
  const { read, write, walk } = contractRequests(() => t);

  beforeAll(async () => {
    t = await createDemoApp();
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  describe('users', () => {
    it('GET /v2/user/list/ and /v2/user/detail/{id}/ on every demo user', async () => {
      const users = await walk('/v2/user/list/');
      expect(users.length).toBeGreaterThanOrEqual(15);
      expectEach(users, USER, 'list');
      for (const u of users) {
        const detail = await read(`/v2/user/detail/${u.id}/`);
        expectShape(detail, USER, `detail(${u.id})`);
        expect(detail).toEqual(u);
      }
      expect(users.some((u) => u.lastLoginAt === null)).toBe(true);
      expect(users.some((u) => u.lastLoginAt !== null)).toBe(true);
      const filtered = await read('/v2/user/list/?accessGroup=call-center&isActive=true');
      expectShape(filtered, LIST_WRAPPER);
      expectEach(filtered.list, USER, 'list');
    });
  });

  describe('agent groups', () => {
    it('GET /v2/agent-group/ (list form) and /v2/agent-group/{id}/ (detail form)', async () => {
      const groups = await walk('/v2/agent-group/');
      expect(groups.length).toBeGreaterThanOrEqual(3);
      expectEach(groups, AGENT_GROUP_LIST_ITEM, 'list');
      for (const g of groups) {
        const detail = await read(`/v2/agent-group/${g.id}/`);
        expectShape(detail, AGENT_GROUP_DETAIL, `detail(${g.id})`);
        expect({ id: detail.id, names: detail.names, agentIds: detail.agentIds }).toEqual({ id: g.id, names: g.names, agentIds: g.agentIds });
      }
      const agentId = groups.find((g) => g.agentIds.length > 0).agentIds[0];
      const filtered = await read(`/v2/agent-group/?agentId=${agentId}`);
      expectShape(filtered, LIST_WRAPPER);
      expectEach(filtered.list, AGENT_GROUP_LIST_ITEM, 'list');
    });
  });

  describe('custom fields', () => {
    it('GET /v2/custom-field/ and /v2/custom-fields/: a bare array, params [] for non-option types', async () => {
      for (const path of ['/v2/custom-field/', '/v2/custom-fields/', '/v2/custom-field/?essence=orders', '/v2/custom-fields/?essence=leads']) {
        const fields = await read(path);
        expect(Array.isArray(fields)).toBe(true);
        expect(fields.length).toBeGreaterThan(0);
        expectEach(fields, CUSTOM_FIELD, path);
        for (const f of fields) {
          if (f.type === 'select' || f.type === 'multiselect') expect({ id: f.id, options: f.params.length > 0 }).toEqual({ id: f.id, options: true });
          else expect({ id: f.id, params: f.params }).toEqual({ id: f.id, params: [] });
        }
      }
      expect(await read('/v2/custom-fields/')).toEqual(await read('/v2/custom-field/'));
      const types = new Set((await read('/v2/custom-field/')).map((f: { type: string }) => f.type));
      expect([...types].sort()).toEqual([...CUSTOM_FIELD_TYPES].sort());
    });
  });

  describe('call attempt groups', () => {
    it('POST /v2/call-attempt/update/{id}/ answers data []', async () => {
      expect(await write('/v2/call-attempt/update/1/', { title: 'Стандартный дозвон', intervals: [5, 30, 120] })).toEqual([]);
      expect(await write('/v2/call-attempt/update/1', { resetAttemptsEnabled: true, isDefault: true })).toEqual([]);
    });
  });
});
