import { CALL, LIST_WRAPPER } from './support/api-contract';
import { contractRequests, createDemoApp } from './support/contract-client';
import { expectEach, expectShape } from './support/shape-check';
import type { TestApp } from './support/test-app';

/** API.md contract of /v2/call/ (list and detail on every demo call) and of /v1/notification/. */

describe('API.md contract on the demo dataset', () => {
  let t: TestApp;
  const { read, write, walk } = contractRequests(() => t);

  beforeAll(async () => {
    t = await createDemoApp();
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  describe('calls', () => {
    it('GET /v2/call/ and /v2/call/detail/{id}/ on every demo call', async () => {
      const orderIds = (await walk('/v2/order/')).map((o) => o.id).join(',');
      const calls = await walk(`/v2/call/?orderIds=${orderIds}`);
      expect(calls.length).toBeGreaterThan(100);
      expectEach(calls, CALL, 'list');
      for (const c of calls) {
        const detail = await read(`/v2/call/detail/${c.id}/`);
        expectShape(detail, CALL, `detail(${c.id})`);
        expect(detail).toEqual(c);
      }
      const byLead = await read(`/v2/call/?leadIds[]=${calls[0].leadId}&createdAt[0]=2000-01-01T00:00:00Z&createdAt[1]=2100-01-01T00:00:00Z`);
      expectShape(byLead, LIST_WRAPPER);
      expectEach(byLead.list, CALL, 'list');
    });
  });

  describe('notifications', () => {
    it('POST /v1/notification/group|private|public/ answer data []', async () => {
      const common = { type: 'default', level: 'success', title: 'Contract', text: 'Check' };
      expect(await write('/v1/notification/group/', { ...common, group: 'call-center' })).toEqual([]);
      expect(await write('/v1/notification/group', { ...common, group: 'admin' })).toEqual([]);
      expect(await write('/v1/notification/private/', { ...common, type: 'urgent', user_id: 1 })).toEqual([]);
      expect(await write('/v1/notification/private', { ...common, user_id: 2 })).toEqual([]);
      expect(await write('/v1/notification/public/', { ...common, level: 'warning' })).toEqual([]);
      expect(await write('/v1/notification/public', { ...common, level: 'danger' })).toEqual([]);
    });
  });
});
