import request from 'supertest';
import { createLeadOrder, leadBody, TestOrder } from './factories/leads';
import { FeedEvent, feedHead, feedPage } from './support/event-feed';
import { createTestApp, TestApp } from './support/test-app';

const WRITERS = 20;
const ROUNDS = 6;

/** What a writer did: the lead, and when each acknowledged change was sent and acknowledged. */
interface Change {
  leadId: number;
  type: 'lead.created' | 'lead.updated';
  name: string;
  sentAt: number;
  ackedAt: number;
}

/**
 * The feed under concurrent writers whose transactions commit out of write order (a slow one holds an early event while
 * later ones commit): a reader following page by page sees every committed event exactly once, in an order consistent
 * with commits, and nothing of a transaction that rolled back.
 */
describe('events: the feed under concurrent writers', () => {
  let t: TestApp;
  let order: TestOrder;
  const post = (path: string, body: unknown) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', t.apiKey)
      .send(body as object);

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0', DB_POOL_SIZE: '30' });
    order = await createLeadOrder(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it(`${WRITERS} writers creating and updating leads while a reader follows: every committed event once, in commit order, none rolled back`, async () => {
    const head = await feedHead(t);
    const changes: Change[] = [];
    let writing = true;

    async function writer(w: number): Promise<void> {
      for (let r = 0; r < ROUNDS; r++) {
        let sentAt = Date.now();
        const name = `w${w}-r${r}`;
        const res = await post('/v2/lead/create/', leadBody(order, { name })).expect(200);
        const leadId = res.body.data.id as number;
        changes.push({ leadId, type: 'lead.created', name, sentAt, ackedAt: Date.now() });

        if (w % 4 === 0) {
          // A slow transaction: its event is written first and committed after others' (out of id order).
          sentAt = Date.now();
          await t.ds.transaction(async (m) => {
            await m.query(`UPDATE lead SET name = $2, updated_at = now() WHERE id = $1`, [leadId, `${name}-slow`]);
            await m.query(`SELECT pg_sleep($1)`, [0.05 + Math.random() * 0.2]);
          });
          changes.push({ leadId, type: 'lead.updated', name: `${name}-slow`, sentAt, ackedAt: Date.now() });
        } else if (w % 4 === 1) {
          // A transaction that writes and rolls back: its event must never appear.
          await t.ds
            .transaction(async (m) => {
              await m.query(`UPDATE lead SET name = $2 WHERE id = $1`, [leadId, `${name}-rolled-back`]);
              await m.query(`SELECT pg_sleep($1)`, [Math.random() * 0.1]);
              throw new Error('roll back');
            })
            .catch(() => undefined);
        }
        sentAt = Date.now();
        await post(`/v2/lead/update/${leadId}/`, { name: `${name}-updated`, priority: r + 1 }).expect(200);
        changes.push({ leadId, type: 'lead.updated', name: `${name}-updated`, sentAt, ackedAt: Date.now() });
      }
    }

    // The reader follows with small pages, as fast as it can, until the writers are done and it has caught up.
    const seen: FeedEvent[] = [];
    const reader = (async () => {
      let after = head;
      for (;;) {
        const done = !writing;
        const page = await feedPage(t, { after, limit: 7, 'types[]': ['lead.created', 'lead.updated'] });
        seen.push(...page.list);
        after = page.next;
        if (done && page.list.length === 0 && seen.length >= changes.length) return;
        if (page.list.length === 0) await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    writing = false;
    // The bound is cleared once the reader is done: a pending 30 s timer would keep the Jest worker from exiting.
    let bound: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        reader,
        new Promise((_, reject) => (bound = setTimeout(() => reject(new Error(`reader stuck at ${seen.length}/${changes.length}`)), 30_000))),
      ]);
    } finally {
      clearTimeout(bound);
    }

    // Exactly once: the reader saw each acknowledged change once and nothing else.
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    const key = (type: string, leadId: number, name: string) => `${type}:${leadId}:${name}`;
    const seenKeys = seen.map((e) => key(e.type, e.data.lead.id, e.data.lead.name));
    expect([...seenKeys].sort()).toEqual(changes.map((c) => key(c.type, c.leadId, c.name)).sort());
    expect(seen.some((e) => String(e.data.lead.name).endsWith('-rolled-back'))).toBe(false);

    // Positions only grow, and reading the whole range again afterwards gives the same sequence:
    // no event ever appeared behind the reader.
    const positions = seen.map((e) => e.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const reread: FeedEvent[] = [];
    for (let after = head; ;) {
      const page = await feedPage(t, { after, limit: 1000, 'types[]': ['lead.created', 'lead.updated'] });
      if (page.list.length === 0) break;
      reread.push(...page.list);
      after = page.next;
    }
    expect(reread.map((e) => e.id)).toEqual(seen.map((e) => e.id));

    // Consistent with commits: a change acknowledged before another was sent comes first.
    const positionOf = new Map(seen.map((e, i) => [seenKeys[i], e.position]));
    const violations: string[] = [];
    for (const a of changes) {
      for (const b of changes) {
        if (a.ackedAt < b.sentAt && positionOf.get(key(a.type, a.leadId, a.name))! > positionOf.get(key(b.type, b.leadId, b.name))!) {
          violations.push(`${a.name} (acked ${a.ackedAt}) after ${b.name} (sent ${b.sentAt})`);
        }
      }
    }
    expect(violations).toEqual([]);
    expect(changes.length).toBe(WRITERS * ROUNDS * 2 + Math.ceil(WRITERS / 4) * ROUNDS);
  }, 120_000);
});
