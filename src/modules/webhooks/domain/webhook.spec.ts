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
    const all = { id: 1, events: ['*'], orderIds: [] };
    const leadsOf7 = { id: 2, events: ['lead.created'], orderIds: [7] };
    const created7 = { type: 'lead.created', orderId: 7, data: {} };
    const updated7 = { type: 'lead.updated', orderId: 7, data: {} };
    const created8 = { type: 'lead.created', orderId: 8, data: {} };
    expect([created7, updated7, created8].map((e) => matchesWebhook(all, e))).toEqual([true, true, true]);
    expect([created7, updated7, created8].map((e) => matchesWebhook(leadsOf7, e))).toEqual([true, false, false]);
    const test2 = { type: 'webhook.test', orderId: null, data: { webhookId: 2 } };
    expect(matchesWebhook(all, test2)).toBe(false);
    expect(matchesWebhook(leadsOf7, test2)).toBe(true);
  });
});
