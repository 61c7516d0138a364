import request from 'supertest';
import type { TestApp } from './test-app';

export interface FeedEvent {
  position: number;
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One page of GET /v2/event/ (expects 200). */
export async function feedPage(t: TestApp, query: Record<string, unknown>): Promise<{ list: FeedEvent[]; next: number }> {
  const res = await request(t.http).get('/v2/event/').query(query).set('X-Api-Key', t.apiKey);
  if (res.status !== 200) throw new Error(`feed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/**
 * Follows the feed from `after` until `done` holds for what was read (or the deadline passes),
 * as an integrator would; returns everything read and the position to continue from.
 */
export async function followFeed(
  t: TestApp,
  after: number,
  done: (events: FeedEvent[]) => boolean,
  opts: { query?: Record<string, unknown>; timeoutMs?: number; limit?: number } = {},
): Promise<{ events: FeedEvent[]; next: number }> {
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  const events: FeedEvent[] = [];
  let next = after;
  for (;;) {
    const page = await feedPage(t, { ...opts.query, after: next, limit: opts.limit ?? 1000 });
    events.push(...page.list);
    next = page.next;
    if (done(events) || Date.now() > deadline) return { events, next };
    if (page.list.length === 0) await new Promise((r) => setTimeout(r, 50));
  }
}

/** The current end of the feed: a reader starting here sees only what happens next. */
export async function feedHead(t: TestApp): Promise<number> {
  let next = 0;
  for (;;) {
    const page = await feedPage(t, { after: next, limit: 1000 });
    if (page.list.length === 0) return next;
    next = page.next;
  }
}
