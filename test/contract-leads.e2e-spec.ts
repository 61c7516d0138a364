import { ID_ONLY, LEAD_V1, leadV2Spec, LIST_WRAPPER, SUCCESS_ENVELOPE } from './support/api-contract';
import { contractRequests, createDemoApp } from './support/contract-client';
import { expectEach, expectShape } from './support/shape-check';
import type { TestApp } from './support/test-app';

/** API.md contract of /v2/lead/ and /v1/lead/: list, detail, create (and create-async) and update, field by field. */

describe('API.md contract on the demo dataset', () => {
  let t: TestApp;
  const { post, read, write, walk } = contractRequests(() => t);

  beforeAll(async () => {
    t = await createDemoApp();
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  describe('leads', () => {
    let order: { id: number; code: string };
    beforeAll(async () => {
      const o = await read('/v2/order/detail/1/');
      order = { id: o.id, code: o.code };
    });

    it('GET /v2/lead/ items carry previousLeadId/nextLeadId; detail does not', async () => {
      const leads = await walk('/v2/lead/');
      expect(leads.length).toBeGreaterThanOrEqual(200);
      expectEach(leads, leadV2Spec('list'), 'list');
      expect(leads.some((l) => l.previousLeadId !== null)).toBe(true);
      expect(leads.some((l) => l.nextLeadId !== null)).toBe(true);
      for (const l of leads) {
        const detail = await read(`/v2/lead/detail/${l.id}/`);
        expectShape(detail, leadV2Spec('detail'), `detail(${l.id})`);
        const { previousLeadId: _p, nextLeadId: _n, ...rest } = l;
        expect(detail).toEqual(rest);
      }
    });

    it('GET /v2/lead/ with the documented filters keeps the wrapper', async () => {
      const page = await read(
        `/v2/lead/?createdAt[0]=2000-01-01T00:00:00Z&createdAt[1]=2100-01-01T00:00:00Z&orderIds[]=${order.id}&statusIds[]=1&statusIds[]=2&limit=5`,
      );
      expectShape(page, LIST_WRAPPER);
      expectEach(page.list, leadV2Spec('list'), 'list');
    });

    it('GET /v1/lead/detail/{id}/ on every demo lead: the UF_ shape', async () => {
      const leads = await walk('/v2/lead/');
      for (const l of leads) {
        const v1 = await read(`/v1/lead/detail/${l.id}/`);
        expectShape(v1, LEAD_V1, `v1(${l.id})`);
        expect(v1.ID).toBe(l.id);
        expect(v1.UF_ORDER).toBe(l.orderId);
        expect(v1.UF_PREVIOUS_LEAD).toBe(l.previousLeadId);
        expect(v1.UF_NEXT_LEAD).toBe(l.nextLeadId);
        expect(v1.UF_STATUS).toBe(String(l.statusId));
        expect(v1.UF_CALL_DATE_TIME).toBe(l.planningCallDateTime === '' ? 0 : Math.floor(Date.parse(l.planningCallDateTime) / 1000));
      }
    });

    it('POST /v2/lead/create/ answers {id}, create-async [], update []', async () => {
      const created = await write('/v2/lead/create/', {
        leadType: 'straight',
        phone: '+4915112345678',
        orderId: order.id,
        orderCode: order.code,
        name: 'Lena',
      });
      expectShape(created, ID_ONLY);
      const detail = await read(`/v2/lead/detail/${created.id}`);
      expectShape(detail, leadV2Spec('detail'));
      expect(detail.customValues).toEqual({});

      const accepted = await post('/v2/lead/create-async/', { leadType: 'selection', phone: '375291234567', orderId: order.id, orderCode: order.code }).expect(
        200,
      );
      expectShape(accepted.body, SUCCESS_ENVELOPE, 'body');
      expect(accepted.body.data).toEqual([]);
      // Extension (PRODUCT.md): the job id travels in a header, never in the body.
      expect(accepted.headers['x-job-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(await write('/v2/lead/create-async', { leadType: 'selection', phone: '375291234568', orderId: order.id, orderCode: order.code })).toEqual([]);

      expect(await write(`/v2/lead/update/${created.id}/`, { priority: 5, adCampaignId: 'cmp-1' })).toEqual([]);
      expect(await write(`/v2/lead/update/${created.id}`, { utcOffset: 1 })).toEqual([]);
    });

    it('POST /v1/lead/create/ answers {id}, update []', async () => {
      const created = await write('/v1/lead/create/', {
        lead_type: 'straight',
        client_phone: '+447911123456',
        order_id: order.id,
        order_code: order.code,
        messengerId: 77,
        socialAId: 12345,
        socialBLogin: 'john',
        client_name: 'John',
      });
      expectShape(created, ID_ONLY);
      expect(await write(`/v1/lead/update/${created.id}/`, { status: 2, call_timestamp: 1893456000 })).toEqual([]);
      expect(await write(`/v1/lead/update/${created.id}`, { priority: 3 })).toEqual([]);
      const v1 = await read(`/v1/lead/detail/${created.id}/`);
      expectShape(v1, LEAD_V1);
      // The call time asked for (2030-01-01 00:00Z), moved by the dialing decision into the order's first window at or after it.
      expect(v1.UF_CALL_DATE_TIME).toBeGreaterThanOrEqual(1893456000);
      expect(v1.UF_CALL_DATE_TIME).toBeLessThan(1893456000 + 7 * 86_400);
      expect(v1.socialAId).toBe('12345');
    });
  });
});
