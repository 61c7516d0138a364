import { createOrderCustomFields, fullOrderBody, OrderCustomFields } from './factories/order-bodies';
import { createOrder, insertOrderReferences, minimalOrderBody, OrderRefs, orderTableCounts } from './factories/orders';
import { orderRequests } from './support/api-requests';
import { createTestApp, TestApp } from './support/test-app';

/** GET /v2/order/: paging, defaults, the list form of an order, a fixed query count. */

describe('orders', () => {
  let t: TestApp;
  let refs: OrderRefs;
  let cf: OrderCustomFields;
  const { get, detail } = orderRequests(() => t);
  const fullBody = () => fullOrderBody(refs, cf);

  beforeAll(async () => {
    t = await createTestApp();
    refs = await insertOrderReferences(t.ds);
    cf = await createOrderCustomFields(t);
    // Orders to page through: the full one (with custom values) and six minimal ones (without).
    await createOrder(t, fullBody());
    for (let i = 0; i < 6; i++) await createOrder(t, minimalOrderBody(refs, { title: `Listed order ${i}` }));
  });
  afterAll(async () => {
    await t.close();
  });

  describe('list', () => {
    it('walks the pages by id with next and total', async () => {
      const total = (await orderTableCounts(t.ds)).orders;
      expect(total).toBeGreaterThan(5);
      const seen: number[] = [];
      let offset = 0;
      for (;;) {
        const res = await get(`/v2/order/?offset=${offset}&limit=4`).expect(200);
        expect(res.body.success).toBe(true);
        expect(Object.keys(res.body.data).sort()).toEqual(['list', 'next', 'total']);
        const { list, next, total: reported } = res.body.data;
        expect(reported).toBe(total);
        expect(next).toBe(offset + list.length);
        seen.push(...list.map((o: { id: number }) => o.id));
        if (list.length === 0) break;
        expect(list.length).toBeLessThanOrEqual(4);
        offset = next;
      }
      expect(seen).toHaveLength(total);
      expect([...seen].sort((a, b) => a - b)).toEqual(seen);
      const beyond = await get(`/v2/order/?offset=${total + 10}`).expect(200);
      expect(beyond.body.data).toEqual({ list: [], next: total + 10, total });
    });

    it('uses defaults offset 0, limit 50', async () => {
      const res = await get('/v2/order').expect(200);
      const total = (await orderTableCounts(t.ds)).orders;
      expect(res.body.data.list).toHaveLength(Math.min(total, 50));
      expect(res.body.data.next).toBe(Math.min(total, 50));
    });

    it('returns the same Order objects as detail, except customValues [] when empty', async () => {
      const res = await get('/v2/order/?limit=100').expect(200);
      for (const item of res.body.data.list) {
        const d = await detail(item.id);
        if (Object.keys(d.customValues).length === 0) {
          expect(item.customValues).toEqual([]);
          expect({ ...item, customValues: {} }).toEqual(d);
        } else {
          expect(item).toEqual(d);
        }
      }
    });

    it.each(['limit=0', 'limit=101', 'limit=-1', 'offset=-1', 'limit=abc', 'offset=1.5'])('rejects %s with 400', async (q) => {
      const res = await get(`/v2/order/?${q}`).expect(400);
      expect(res.body.success).toBe(false);
    });

    it('loads member sets in the page statement: a fixed number of queries whatever the page size', async () => {
      // Background work (queue heartbeats, notification outbox, API-key cache refreshes) shares the DataSource, so only
      // statements reading the order tables are counted, matched on table names (the counter compactor's carry order_id).
      const orderQueries = (calls: unknown[][]) =>
        calls.filter(([sql]) => /\b(FROM|JOIN)\s+(call_order|order_agent|order_agent_group|order_sip_endpoint|order_transfer_number)\b/.test(String(sql)));
      await get('/v2/order/?limit=1').expect(200); // warm the key cache
      const spy = jest.spyOn(t.ds, 'query');
      try {
        await get('/v2/order/?limit=2').expect(200);
        const small = orderQueries(spy.mock.calls).length;
        spy.mockClear();
        await get('/v2/order/?limit=100').expect(200);
        const large = orderQueries(spy.mock.calls);
        expect(large).toHaveLength(small);
        // The page and its count: the member sets are read inside the page's own statement.
        expect(large.length).toBeLessThanOrEqual(2);
        const page = large.map(([sql]) => String(sql)).find((sql) => /FROM call_order o ORDER BY/.test(sql));
        for (const table of ['order_agent', 'order_agent_group', 'order_sip_endpoint', 'order_transfer_number']) {
          expect(page).toMatch(new RegExp(`FROM ${table} \\w+ WHERE \\w+\\.order_id = o\\.id`));
        }
      } finally {
        spy.mockRestore();
      }
    });
  });
});
