import { healthComponentErrors } from './support/api-contract';
import { Body, contractRequests, createDemoApp } from './support/contract-client';
import { arrayOf, expectShape, isPlainObject, oneOf, shape, Spec } from './support/shape-check';
import type { TestApp } from './support/test-app';

/** API.md contract of the failure envelope (unknown ids, bad input) and of /v1/health/check/. */

describe('API.md contract on the demo dataset', () => {
  let t: TestApp;
  const { get, post, read } = contractRequests(() => t);

  beforeAll(async () => {
    t = await createDemoApp();
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  describe('failures', () => {
    const FAILURE: Spec = {
      success: oneOf(false),
      message: (v, p) => (typeof v === 'string' && v.length > 0 ? [] : [`${p}: expected a non-empty string`]),
      data: 'empty[]|object',
    };

    it('unknown ids and bad input answer the failure envelope {success: false, message, data}', async () => {
      for (const path of [
        '/v2/order/detail/999999/',
        '/v2/lead/detail/999999/',
        '/v1/lead/detail/999999/',
        '/v2/call/detail/999999/',
        '/v2/user/detail/999999/',
        '/v2/agent-group/999999/',
      ]) {
        const res = await get(path);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expectShape(res.body, FAILURE, `body(${path})`);
        expect(res.body.data).toEqual([]);
      }
      const bad = await post('/v2/order/create/', { title: 'No sip endpoints', serviceTitle: 'x', status: 'info', sipEndpointIds: [] });
      expect(bad.status).toBe(400);
      expectShape(bad.body, FAILURE, 'body');
      expectShape(bad.body.data, { errors: arrayOf(shape({ field: 'string', message: 'string' })) });
      const zero = await get('/v2/order/detail/0/');
      expect(zero.status).toBe(400);
      expectShape(zero.body, FAILURE, 'body');
    });
  });

  describe('health', () => {
    it('GET /v1/health/check/: a map of components {success, message, data:{executionTime, reasonPhrase?}}', async () => {
      const data = await read('/v1/health/check/', false);
      expect(isPlainObject(data)).toBe(true);
      expect(Object.keys(data)).toEqual(expect.arrayContaining(['serviceMqHub']));
      expect(Object.entries(data).flatMap(([key, c]) => healthComponentErrors(key, c))).toEqual([]);
      for (const c of Object.values<Body>(data)) expect(c.message).toBe(c.success ? '' : expect.any(String));
      expect(data.serviceMqHub.data.consumers.length).toBeGreaterThan(0);
    });
  });
});
