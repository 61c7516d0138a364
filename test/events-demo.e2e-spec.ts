import request from 'supertest';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { FeedEvent, followFeed } from './support/event-feed';
import { createTestApp, TestApp } from './support/test-app';

/** The demo dataset shows the feed: its orders, leads and calls are events that agree with the API. */
describe('events: the demo dataset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.get(DemoSeeder).run();
  });
  afterAll(async () => {
    await t.close();
  });

  it('has an event per demo order, lead and call; the last event of each record shows it as detail does', async () => {
    const get = async (path: string) => (await request(t.http).get(path).set('X-Api-Key', t.apiKey).expect(200)).body.data;
    const [{ orders, leads, calls }] = await t.ds.query(
      `SELECT (SELECT count(*)::int FROM call_order) AS orders, (SELECT count(*)::int FROM lead) AS leads, (SELECT count(*)::int FROM call) AS calls`,
    );
    const count = (es: FeedEvent[], type: string) => es.filter((e) => e.type === type).length;
    const { events } = await followFeed(t, 0, (es) => count(es, 'call.created') >= calls, { timeoutMs: 30_000 });
    expect([count(events, 'order.created'), count(events, 'lead.created'), count(events, 'call.created')]).toEqual([orders, leads, calls]);

    // Each record's latest event agrees with detail (orders: backdated opening included; secondary leads: their link).
    const lastOf = (pick: (e: FeedEvent) => number | undefined) => {
      const last = new Map<number, FeedEvent>();
      for (const e of events) if (pick(e) !== undefined) last.set(pick(e)!, e);
      return last;
    };
    const lastOrder = lastOf((e) => e.data.order?.id);
    for (const [id, e] of lastOrder) expect(e.data.order).toEqual(await get(`/v2/order/detail/${id}/`));
    const lastLead = lastOf((e) => e.data.lead?.id);
    const secondary = [...lastLead.values()].filter((e) => e.data.lead.isSecondary).slice(0, 5);
    expect(secondary.length).toBeGreaterThan(0);
    for (const e of [...[...lastLead.values()].slice(0, 5), ...secondary]) {
      expect(e.data.lead).toEqual(await get(`/v2/lead/detail/${e.data.lead.id}/`));
    }
    const call = events.find((e) => e.type === 'call.created')!;
    expect(call.data.call).toEqual(await get(`/v2/call/detail/${call.data.call.id}/`));
  });
});
