import request from 'supertest';
import { seededRandom } from '../src/database/seed/random';
import { CALL_COUNTERS, CALL_USER_COUNTERS } from '../src/modules/calls/persistence/call-counters';
import { CallCountersCompactor } from '../src/modules/calls/persistence/call-counters.compactor';
import { createLeadOrder, TestOrder } from './factories/leads';
import { createSipEndpoint, createUser } from './factories/reference';
import { createTestApp, TestApp } from './support/test-app';

const HOUR = 3_600_000;
const BASE = Date.parse('2026-10-05T00:00:00Z');
const STATUSES = [1, 2, 3, 4, 5, 6];

const rng = seededRandom;

interface Filter {
  leadIds?: number[];
  orderIds?: number[];
  userIds?: number[];
  statusIds?: number[];
  from?: string;
  to?: string;
}

interface NewCallRow {
  leadId: number;
  userId: number | null;
  statusId: number;
  /** ISO 8601 with microseconds allowed. */
  createdAt: string;
}

/** A timestamp with microseconds, as PostgreSQL stores them. */
const at = (ms: number, us = 0) => `${new Date(ms).toISOString().slice(0, 23)}${String(us).padStart(3, '0')}Z`;

describe('GET /v2/call/: exact totals from counters at any filter, under inserts and compaction', () => {
  let t: TestApp;
  let a: TestOrder;
  let b: TestOrder;
  let sipId: number;
  const users: number[] = [];
  const leads = new Map<number, number[]>();
  let platformSeq = 0;
  const r = rng(42);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];

  const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey);
  const compact = () => t.app.get(CallCountersCompactor).compact();

  /** Inserts calls of one order in one statement: the counting triggers run as for any insert. */
  async function insertCalls(order: TestOrder, rows: NewCallRow[]): Promise<void> {
    const first = platformSeq + 1;
    platformSeq += rows.length;
    await t.ds.query(
      `INSERT INTO call (order_id, lead_id, user_id, sip_endpoint_id, status_id, direction, total_duration_seconds,
                         wait_time_duration_seconds, talk_time_duration_seconds, client_phone, platform_call_id, created_at)
       SELECT $1, l, u, $2, s, 'outgoing', 60, 10, 40, '79161234567', 'ctr-' || ($3::int + i - 1), c::timestamptz
       FROM unnest($4::int[], $5::int[], $6::int[], $7::text[]) WITH ORDINALITY AS x(l, u, s, c, i)`,
      [order.id, sipId, first, rows.map((x) => x.leadId), rows.map((x) => x.userId), rows.map((x) => x.statusId), rows.map((x) => x.createdAt)],
    );
  }

  /** Random calls over ten days, with some on and next to hour boundaries. */
  function randomCalls(order: TestOrder, n: number): NewCallRow[] {
    return Array.from({ length: n }, () => {
      const ms = r() < 0.2 ? BASE + Math.floor(r() * 240) * HOUR + pick([-1, 0, 0, 1]) : BASE + Math.floor(r() * 240 * HOUR);
      return {
        leadId: pick(leads.get(order.id)!),
        userId: r() < 0.25 ? null : pick(users),
        statusId: pick(STATUSES),
        createdAt: at(ms, Math.floor(r() * 1000)),
      };
    });
  }

  const FILTER_SQL = `($1::int[] IS NULL OR lead_id = ANY($1)) AND ($2::int[] IS NULL OR order_id = ANY($2))
    AND ($3::int[] IS NULL OR user_id = ANY($3)) AND ($4::int[] IS NULL OR status_id = ANY($4))
    AND ($5::timestamptz IS NULL OR created_at >= $5) AND ($6::timestamptz IS NULL OR created_at <= $6)`;
  const filterParams = (f: Filter) => [f.leadIds ?? null, f.orderIds ?? null, f.userIds ?? null, f.statusIds ?? null, f.from ?? null, f.to ?? null];

  /** The truth: a plain count over the call table. */
  async function bruteCount(f: Filter): Promise<number> {
    const rows: { n: number }[] = await t.ds.query(`SELECT count(*)::int AS n FROM call WHERE ${FILTER_SQL}`, filterParams(f));
    return rows[0].n;
  }

  async function bruteIds(f: Filter, offset: number, limit: number): Promise<number[]> {
    const rows: { id: number }[] = await t.ds.query(`SELECT id FROM call WHERE ${FILTER_SQL} ORDER BY id OFFSET $7 LIMIT $8`, [
      ...filterParams(f),
      offset,
      limit,
    ]);
    return rows.map((x) => x.id);
  }

  /** The query string, with the three array forms in turn. */
  function query(f: Filter, extra = ''): string {
    const parts: string[] = [];
    const arr = (name: string, ids: number[] | undefined, form: number) => {
      if (!ids) return;
      if (form === 0) parts.push(...ids.map((id) => `${name}[]=${id}`));
      else if (form === 1) parts.push(`${name}=${ids.join(',')}`);
      else parts.push(...ids.map((id) => `${name}=${id}`));
    };
    let form = 0;
    for (const [name, ids] of [
      ['leadIds', f.leadIds],
      ['orderIds', f.orderIds],
      ['userIds', f.userIds],
      ['statusIds', f.statusIds],
    ] as const)
      arr(name, ids, form++ % 3);
    if (f.from) parts.push(`createdAt[0]=${encodeURIComponent(f.from)}`);
    if (f.to) parts.push(`createdAt[1]=${encodeURIComponent(f.to)}`);
    if (extra) parts.push(extra);
    return `/v2/call/?${parts.join('&')}`;
  }

  /** Round hours, a millisecond either side, or anything in the ten days (and a bit around). */
  function randomInstant(): string {
    const ms = BASE - 2 * HOUR + Math.floor(r() * 244 * HOUR);
    const p = r();
    const snapped = Math.round(ms / HOUR) * HOUR;
    return new Date(p < 0.3 ? snapped : p < 0.4 ? snapped - 1 : p < 0.5 ? snapped + 1 : ms).toISOString();
  }

  /** Every combination the list accepts: orders alone or with users/statuses/ranges, and leads with anything. */
  function randomFilters(n: number): Filter[] {
    return Array.from({ length: n }, (_, i) => {
      let from: string | undefined = r() < 0.6 ? randomInstant() : undefined;
      let to: string | undefined = r() < 0.6 ? randomInstant() : undefined;
      if (from && to && from > to) [from, to] = [to, from];
      const byLead = i % 4 === 3;
      const orderIds = i % 5 === 0 ? [a.id, b.id] : [i % 2 ? a.id : b.id];
      return {
        leadIds: byLead ? [pick(leads.get(a.id)!), pick(leads.get(b.id)!), pick(leads.get(a.id)!)] : undefined,
        orderIds: byLead ? (r() < 0.5 ? orderIds : undefined) : orderIds,
        userIds: i % 3 === 0 ? [pick(users)] : i % 7 === 1 ? [users[0], users[2]] : undefined,
        statusIds: i % 4 === 0 ? [1, 6] : i % 4 === 1 ? [pick(STATUSES)] : undefined,
        from,
        to,
      };
    });
  }

  /** Total and page of each filter against the table itself. */
  async function expectExact(filters: Filter[]): Promise<void> {
    for (const [i, f] of filters.entries()) {
      const offset = i % 3 === 0 ? 0 : i % 3 === 1 ? 7 : 40;
      const res = await get(query(f, `limit=15&offset=${offset}`)).expect(200);
      expect({ f, total: res.body.data.total }).toEqual({ f, total: await bruteCount(f) });
      expect({ f, ids: res.body.data.list.map((c: { id: number }) => c.id) }).toEqual({ f, ids: await bruteIds(f, offset, 15) });
      expect(res.body.data.next).toBe(offset + res.body.data.list.length);
    }
  }

  beforeAll(async () => {
    t = await createTestApp();
    // Compaction runs when the tests say so, and concurrently in the concurrency test.
    await t.app.get(CallCountersCompactor).onModuleDestroy();
    sipId = await createSipEndpoint(t);
    for (const name of ['Анна', 'Boris', 'Clara']) users.push(await createUser(t, { accessGroup: 'call-center', name }));
    a = await createLeadOrder(t);
    b = await createLeadOrder(t);
    for (const [k, order] of [a, b].entries()) {
      const ids: { id: number }[] = await t.ds.query(
        `INSERT INTO lead (order_id, phone, lead_type, status_id, utc_offset)
         SELECT $1, '+7916' || lpad(($2::int + i)::text, 7, '0'), 'straight', 1, 3 FROM generate_series(1, 25) i RETURNING id`,
        [order.id, k * 1000],
      );
      leads.set(
        order.id,
        ids.map((x) => x.id),
      );
      await insertCalls(order, randomCalls(order, 400));
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers every filter combination exactly, before and after compaction, and after counting existing calls again', async () => {
    const filters = randomFilters(48);
    filters.push({ orderIds: [a.id] }, { orderIds: [a.id, b.id], userIds: users }, { leadIds: [leads.get(a.id)![0]] });
    await expectExact(filters);
    expect(await compact()).toBeGreaterThan(0);
    await expectExact(filters);

    // The migration's backfill counts calls stored before the counters existed.
    for (const set of [CALL_COUNTERS, CALL_USER_COUNTERS]) {
      for (const part of ['delta', 'hour', 'day', 'total']) await t.ds.query(`DELETE FROM ${set.spec.name}_${part}`);
      await t.ds.query(set.backfill());
    }
    await expectExact(filters);
    await compact();
    await expectExact(filters);
  });

  it('follows updates and deletes of counted columns (user set or cleared, status, creation hour)', async () => {
    const filters = randomFilters(30);
    await t.ds.query(`UPDATE call SET user_id = NULL WHERE order_id = $1 AND id % 5 = 0`, [a.id]);
    await t.ds.query(`UPDATE call SET user_id = $2, status_id = 6 WHERE order_id = $1 AND user_id IS NULL AND id % 3 = 0`, [a.id, users[1]]);
    await t.ds.query(`UPDATE call SET created_at = created_at + interval '30 hours' WHERE order_id = $1 AND id % 7 = 0`, [b.id]);
    await t.ds.query(`UPDATE call SET talk_time_duration_seconds = 5 WHERE order_id = $1`, [b.id]);
    await t.ds.query(`DELETE FROM call WHERE order_id = $1 AND status_id = 2 AND id % 2 = 0`, [b.id]);
    await expectExact(filters);
    await compact();
    await expectExact(filters);
    const pending: { n: number }[] = await t.ds.query(`SELECT (SELECT count(*) FROM call_count_delta) + (SELECT count(*) FROM call_user_count_delta) AS n`);
    expect(Number(pending[0].n)).toBe(0);
  });

  it('takes createdAt ranges inside one hour, across hours and days, open on either side, and date-only bounds', async () => {
    const ranges: [string | undefined, string | undefined][] = [
      ['2026-10-06T10:15:00Z', '2026-10-06T10:45:00Z'], // inside one hour
      ['2026-10-06T10:00:00Z', '2026-10-06T10:59:59.999Z'], // exactly one hour
      ['2026-10-06T10:30:00Z', '2026-10-06T12:30:00Z'], // two boundary hours and a whole one
      ['2026-10-05T22:10:00Z', '2026-10-09T01:20:00Z'], // whole days between partial days
      ['2026-10-07T00:00:00Z', '2026-10-09T00:00:00Z'], // whole days, a boundary instant
      ['2026-10-07T05:00:00.001Z', undefined],
      [undefined, '2026-10-07T05:00:00Z'],
      ['2026-09-01T00:00:00Z', '2026-09-02T00:00:00Z'], // before every call
    ];
    const filters: Filter[] = [];
    for (const [from, to] of ranges) {
      filters.push({ orderIds: [a.id], from, to }, { orderIds: [a.id, b.id], statusIds: [1, 2, 3], from, to });
      filters.push({ orderIds: [b.id], userIds: [users[0]], from, to }, { leadIds: leads.get(b.id)!.slice(0, 5), from, to });
    }
    await expectExact(filters);
    const day = await get(`/v2/call/?orderIds=${a.id}&createdAt[0]=2026-10-06&createdAt[1]=2026-10-06`).expect(200);
    const dayCount = await bruteCount({ orderIds: [a.id], from: '2026-10-06T00:00:00Z', to: '2026-10-06T23:59:59.999Z' });
    expect(dayCount).toBeGreaterThan(0);
    expect(day.body.data.total).toBe(dayCount);
  });

  it('walks every page of a user filter by id, and answers past the end with the same total', async () => {
    const f: Filter = { orderIds: [a.id, b.id], userIds: [users[2]], statusIds: [1, 2, 3, 4] };
    const total = await bruteCount(f);
    const seen: number[] = [];
    let offset = 0;
    for (;;) {
      const res = await get(query(f, `limit=37&offset=${offset}`)).expect(200);
      expect(res.body.data.total).toBe(total);
      seen.push(...res.body.data.list.map((c: { id: number }) => c.id));
      if (res.body.data.list.length < 37) break;
      offset = res.body.data.next;
    }
    expect(seen).toEqual(await bruteIds(f, 0, 10_000));
    const past = await get(query(f, `offset=${total + 10}`)).expect(200);
    expect(past.body.data).toEqual({ list: [], next: total + 10, total });
    // A lead of another order, or a user without calls in the order: nothing, exactly.
    expect((await get(`/v2/call/?orderIds=${a.id}&leadIds=${leads.get(b.id)![0]}`).expect(200)).body.data).toEqual({ list: [], next: 0, total: 0 });
    const stranger = await createUser(t, { name: 'Dmitri' });
    expect((await get(`/v2/call/?orderIds=${a.id}&userIds=${stranger}`).expect(200)).body.data).toEqual({ list: [], next: 0, total: 0 });
  });

  it('keeps each total within the calls committed before and after the request while calls arrive and compaction runs', async () => {
    const telephony = await t.keyWith('telephony');
    const filters: Filter[] = [
      { orderIds: [a.id] },
      { orderIds: [a.id], statusIds: [2, 3] },
      { orderIds: [a.id], userIds: [users[0]] },
      { orderIds: [a.id, b.id], from: '2026-10-06T10:30:00Z', to: '2026-10-08T03:15:00Z' },
      { orderIds: [a.id], userIds: [users[0], users[1]], statusIds: [1], from: '2026-10-07T00:00:00Z' },
      { leadIds: leads.get(a.id)!.slice(0, 4) },
    ];
    let writing = true;
    const sqlWriters = Array.from({ length: 3 }, async () => {
      for (let i = 0; i < 30; i++) await insertCalls(a, randomCalls(a, 1 + Math.floor(r() * 6)));
    });
    // Calls recorded by the telephony platform, as in production (one call per transaction).
    const httpWriter = (async () => {
      for (let i = 0; i < 40; i++) {
        const leadId = pick(leads.get(a.id)!);
        const res = await request(t.http)
          .post('/v2/call/create/')
          .set('X-Api-Key', telephony)
          .send({
            platformCallId: `ctr-http-${i}`,
            leadId,
            userId: pick([users[0], users[1], null]),
            sipEndpointId: sipId,
            statusId: pick(STATUSES),
            direction: 'outgoing',
            totalDurationSeconds: 30,
            waitTimeDurationSeconds: 10,
            talkTimeDurationSeconds: 20,
            startedAt: new Date(BASE + Math.floor(r() * 240 * HOUR)).toISOString(),
          });
        expect(res.status).toBe(200);
      }
    })();
    const compactor = (async () => {
      let folded = 0;
      while (writing) {
        folded += await compact();
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
      return folded;
    })();
    let checks = 0;
    const reader = (async () => {
      while (writing) {
        for (const f of filters) {
          const before = await bruteCount(f);
          const res = await get(query(f, 'limit=5')).expect(200);
          const after = await bruteCount(f);
          expect({ f, within: res.body.data.total >= before && res.body.data.total <= after }).toEqual({ f, within: true });
          checks += 1;
        }
      }
    })();
    await Promise.all([...sqlWriters, httpWriter]);
    writing = false;
    const [folded] = await Promise.all([compactor, reader]);
    expect(folded).toBeGreaterThan(0);
    expect(checks).toBeGreaterThan(filters.length);
    await expectExact([...filters, ...randomFilters(20)]);
    await compact();
    await expectExact(filters);
  });

  it('empties the counters with TRUNCATE and counts again from there', async () => {
    await t.ds.query(`TRUNCATE call`);
    expect((await get(`/v2/call/?orderIds=${a.id}`).expect(200)).body.data.total).toBe(0);
    await insertCalls(a, randomCalls(a, 50));
    await expectExact(randomFilters(12));
    await compact();
    await expectExact(randomFilters(12));
  });
});
