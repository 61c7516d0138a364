import { ID_ONLY, orderSpec } from './support/api-contract';
import { contractRequests, createDemoApp } from './support/contract-client';
import { expectEach, expectShape } from './support/shape-check';
import type { TestApp } from './support/test-app';

/** API.md contract of /v2/order/: list, detail, create and update answer exactly the documented fields and types. */

describe('API.md contract on the demo dataset', () => {
  let t: TestApp;
  const { read, write, walk } = contractRequests(() => t);

  beforeAll(async () => {
    t = await createDemoApp();
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  describe('orders', () => {
    let sipIds: number[];
    beforeAll(async () => {
      sipIds = (await read('/v2/sip-endpoint/')).list.map((s: { id: number }) => s.id);
    });

    it('GET /v2/order/ and /v2/order/detail/{id}/ on every demo order', async () => {
      const orders = await walk('/v2/order/');
      expect(orders.length).toBeGreaterThanOrEqual(5);
      expectEach(orders, orderSpec('list'), 'list');
      for (const o of orders) {
        const detail = await read(`/v2/order/detail/${o.id}/`);
        expectShape(detail, orderSpec('detail'), `detail(${o.id})`);
        // Same object apart from the customValues [] / {} rule.
        expect({ ...detail, customValues: null }).toEqual({ ...o, customValues: null });
      }
      // The demo has orders with transfer numbers with and without names, and with custom values.
      const transfers = orders.flatMap((o) => o.transferNumbers);
      expect(transfers.some((tn) => Array.isArray(tn.names))).toBe(true);
      expect(transfers.some((tn) => !Array.isArray(tn.names))).toBe(true);
      expect(orders.some((o) => !Array.isArray(o.customValues))).toBe(true);
    });

    it('POST /v2/order/create/ answers {id}; an order without custom values is {} in detail and [] in the list', async () => {
      const created = await write('/v2/order/create/', {
        serviceTitle: 'Contract check',
        title: 'Contract check',
        status: 'info',
        sipEndpointIds: [sipIds[0]],
        callSchedule: [['09:00', '18:00']],
        callHolidayOverrides: ['2027-03-08'],
        transferNumbers: [{ number: '+74951112233' }, { number: '+74951112234', names: { ru: 'Бухгалтерия', gb: 'Accounting' } }],
        createdAt: '2001-01-01T00:00:00Z',
        unknownField: 1,
      });
      expectShape(created, ID_ONLY);
      const detail = await read(`/v2/order/detail/${created.id}/`);
      expectShape(detail, orderSpec('detail'));
      expect(detail.customValues).toEqual({});
      expect(Array.isArray(detail.customValues)).toBe(false);
      expect(detail.callSchedule).toEqual([['09:00', '18:00'], [], [], [], [], [], []]);
      expect(detail.callHolidayOverrides).toEqual(['08.03.2027']);
      expect(detail.transferNumbers).toEqual([
        { number: '+74951112233', names: [] },
        { number: '+74951112234', names: { ru: 'Бухгалтерия', gb: 'Accounting' } },
      ]);
      const listed = (await walk('/v2/order/')).find((o) => o.id === created.id);
      expect(listed.customValues).toEqual([]);
      expect(Array.isArray(listed.customValues)).toBe(true);
    });

    it('POST /v2/order/update/{id}/ answers data []', async () => {
      const data = await write('/v2/order/update/1/', { status: 'secondary' });
      expect(data).toEqual([]);
      expect(await write('/v2/order/update/1', { status: 'success' })).toEqual([]);
    });
  });
});
