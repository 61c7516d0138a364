import { checkUrlShape, matchesWebhook, normaliseEvents } from './webhook';

const KNOWN = ['lead.created', 'lead.updated', 'webhook.test'];

describe('webhook rules', () => {
  it('events: a non-empty list of known types or ["*"], duplicates dropped', () => {
    expect(normaliseEvents(['lead.created', 'lead.created'], KNOWN)).toEqual({ ok: true, value: ['lead.created'] });
    expect(normaliseEvents(['*'], KNOWN)).toEqual({ ok: true, value: ['*'] });
    expect(normaliseEvents([], KNOWN).ok).toBe(false);
    expect(normaliseEvents(['*', 'lead.created'], KNOWN).ok).toBe(false);
    const bad = normaliseEvents(['lead.created', 'lead.deleted'], KNOWN);
    expect(bad.ok === false && bad.errors[0]).toEqual({ field: 'events', message: expect.stringContaining('unknown types: lead.deleted') });
  });

  it('url: https only unless http is allowed; no credentials', () => {
    expect(checkUrlShape('https://a.example/x', false).ok).toBe(true);
    expect(checkUrlShape('http://a.example/x', false).ok).toBe(false);
    expect(checkUrlShape('http://a.example/x', true).ok).toBe(true);
    expect(checkUrlShape('ftp://a.example/x', true).ok).toBe(false);
    expect(checkUrlShape('https://u:p@a.example/x', false).ok).toBe(false);
    expect(checkUrlShape('not a url', false).ok).toBe(false);
  });

  it('matching: type filter, order filter, test events to their own webhook only', () => {
    const all = { id: 1, clientId: null, events: ['*'], orderIds: [] };
    const leadsOf7 = { id: 2, clientId: null, events: ['lead.created'], orderIds: [7] };
    const created7 = { type: 'lead.created', orderId: 7, orderClientId: null, clientId: null, data: {} };
    const updated7 = { type: 'lead.updated', orderId: 7, orderClientId: null, clientId: null, data: {} };
    const created8 = { type: 'lead.created', orderId: 8, orderClientId: null, clientId: null, data: {} };
    expect([created7, updated7, created8].map((e) => matchesWebhook(all, e))).toEqual([true, true, true]);
    expect([created7, updated7, created8].map((e) => matchesWebhook(leadsOf7, e))).toEqual([true, false, false]);
    const test2 = { type: 'webhook.test', orderId: null, orderClientId: null, clientId: null, data: { webhookId: 2 } };
    expect(matchesWebhook(all, test2)).toBe(false);
    expect(matchesWebhook(leadsOf7, test2)).toBe(true);
  });

  it("a client's webhook: only events of its client's orders, whatever its filters say; its own test events", () => {
    const ofClient3 = { id: 5, clientId: 3, events: ['*'], orderIds: [] };
    const naming7 = { id: 6, clientId: 3, events: ['*'], orderIds: [7] };
    const unrestricted = { id: 1, clientId: null, events: ['*'], orderIds: [] };
    const of3 = { type: 'lead.created', orderId: 7, orderClientId: 3, clientId: null, data: {} };
    const of4 = { type: 'lead.created', orderId: 7, orderClientId: 4, clientId: null, data: {} };
    const own = { type: 'lead.created', orderId: 8, orderClientId: null, clientId: null, data: {} };
    expect([of3, of4, own].map((e) => matchesWebhook(ofClient3, e))).toEqual([true, false, false]);
    expect([of3, of4].map((e) => matchesWebhook(naming7, e))).toEqual([true, false]);
    expect([of3, of4, own].map((e) => matchesWebhook(unrestricted, e))).toEqual([true, true, true]);
    expect(matchesWebhook(ofClient3, { type: 'webhook.test', orderId: null, orderClientId: null, clientId: null, data: { webhookId: 5 } })).toBe(true);
  });

  it("do-not-call events: a client's webhook gets its client's list's and its orders' lists', never the global list's", () => {
    const ofClient3 = { id: 5, clientId: 3, events: ['dnc.added'], orderIds: [] };
    const naming7 = { id: 6, clientId: 3, events: ['*'], orderIds: [7] };
    const unrestricted = { id: 1, clientId: null, events: ['*'], orderIds: [] };
    const clientList3 = { type: 'dnc.added', orderId: null, orderClientId: null, clientId: 3, data: {} };
    const clientList4 = { type: 'dnc.added', orderId: null, orderClientId: null, clientId: 4, data: {} };
    const orderList7 = { type: 'dnc.added', orderId: 7, orderClientId: 3, clientId: null, data: {} };
    const globalList = { type: 'dnc.added', orderId: null, orderClientId: null, clientId: null, data: {} };
    const removed3 = { ...clientList3, type: 'dnc.removed' };
    expect([clientList3, clientList4, orderList7, globalList, removed3].map((e) => matchesWebhook(ofClient3, e))).toEqual([true, false, true, false, false]);
    expect([clientList3, orderList7].map((e) => matchesWebhook(naming7, e))).toEqual([false, true]);
    expect([clientList3, clientList4, orderList7, globalList].map((e) => matchesWebhook(unrestricted, e))).toEqual([true, true, true, true]);
  });
});
