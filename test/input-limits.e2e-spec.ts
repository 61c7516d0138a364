import request from 'supertest';
import { MAX_IDS_PER_FILTER, QUERY_PARAMETER_LIMIT } from '../src/common/query';
import { createLeadOrder, leadBody, TestOrder } from './factories/leads';
import { insertOrderReferences, minimalOrderBody, OrderRefs } from './factories/orders';
import {
  FIELD_CAPS,
  HOLIDAY_YEAR,
  HOSTILE_SHAPES,
  keys,
  LimitCase,
  LimitsContext,
  LONGEST_COMMENT,
  leadIdsQuery,
  RUSSIAN_HOLIDAYS,
  TOO_LARGE,
  TOO_MANY_PARAMETERS,
  UNKNOWN_AGENTS,
} from './support/input-limit-cases';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Hostile bodies and query strings: each is refused with a 4xx naming the field and the limit, and
 * stores nothing; the largest valid bodies are stored. How long each holds the event loop is
 * bounded by the reliability suite (reliability/input-limits.rel-spec.ts), on the same requests.
 */
describe('input limits: answers, and nothing stored', () => {
  let t: TestApp;
  let ctx: LimitsContext;
  let order: TestOrder;
  let refs: OrderRefs;
  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
    order = await createLeadOrder(t);
    refs = await insertOrderReferences(t.ds);
    ctx = { order, refs };
  });
  afterAll(async () => {
    await t.close();
  });

  const send = (c: LimitCase, key: string | null = t.apiKey) => {
    const r = c.method === 'GET' ? request(t.http).get(c.path) : request(t.http).post(c.path).set('Content-Type', 'application/json');
    if (key) r.set('X-Api-Key', key);
    return c.body ? r.send(JSON.stringify(c.body(ctx))) : r;
  };
  const footprint = async () =>
    (
      await t.ds.query(`SELECT (SELECT count(*)::int FROM lead) AS leads, (SELECT count(*)::int FROM call_order) AS orders,
        (SELECT count(*)::int FROM order_transfer_number) AS transfers, (SELECT count(*)::int FROM notification) AS notifications,
        (SELECT count(*)::int FROM pgboss.job) AS jobs`)
    )[0];

  function expectRefused(res: request.Response, field: string, message: RegExp): void {
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.data.errors).toEqual([{ field, message: expect.stringMatching(message) }]);
    expect(res.body.message).toMatch(field);
  }

  /** Sends a case that must be refused as it expects, and checks that nothing was stored. */
  async function expectCaseRefused(c: LimitCase): Promise<void> {
    const before = await footprint();
    const res = await send(c);
    if (c.expected.status === 413) {
      expect({ status: res.status, body: res.body }).toEqual({
        status: 413,
        body: { success: false, message: `Request body exceeds the ${c.expected.limit} limit of this route`, data: [] },
      });
    } else if ('field' in c.expected) {
      expectRefused(res, c.expected.field, c.expected.message);
    } else {
      expect(res.status).toBe(c.expected.status);
    }
    expect(await footprint()).toEqual(before);
  }

  it('creates a normal lead and order (the baseline the limits are measured against)', async () => {
    await request(t.http).post('/v2/lead/create/').set('X-Api-Key', t.apiKey).send(leadBody(order)).expect(200);
    await request(t.http).post('/v2/order/create/').set('X-Api-Key', t.apiKey).send(minimalOrderBody(refs)).expect(200);
  });

  describe('bodies over the route limit: 413 naming it, before any parsing', () => {
    it.each(TOO_LARGE.map((c) => [c.path, (c.expected as { limit: string }).limit, c.label, c] as const))('%s (%s): %s', async (_path, _limit, _label, c) => {
      await expectCaseRefused(c);
    });

    it('answers 401 first to a caller without a valid key, whatever the size', async () => {
      const big = JSON.stringify({ ...leadBody(order), ...keys(60_000, 'k') });
      const post = () => request(t.http).post('/v2/lead/create/').set('Content-Type', 'application/json');
      expect((await post().send(big)).status).toBe(401);
      expect((await post().set('X-Api-Key', 'cck_not-a-real-key').send(big)).status).toBe(401);
    });

    it('reads a lead body of any valid size: a 65,535-character Cyrillic sourceComment', async () => {
      expect((await send(LONGEST_COMMENT)).status).toBe(200);
    });
  });

  describe('hostile shapes within the limit: 400 at the edge, before class-transformer', () => {
    it.each(HOSTILE_SHAPES.map((c) => [c.path, c.label, c] as const))('%s: %s', async (_path, _label, c) => {
      await expectCaseRefused(c);
    });
  });

  describe('per-field caps: 400 naming the field and the cap', () => {
    it.each(FIELD_CAPS.map((c) => [c.path, c.label, c] as const))('%s: %s', async (_path, _label, c) => {
      await expectCaseRefused(c);
    });

    it('refuses an ip with a long zone id on update too, and keeps a short one', async () => {
      const created = await request(t.http)
        .post('/v2/lead/create/')
        .set('X-Api-Key', t.apiKey)
        .send(leadBody(order, { ip: 'fe80::1%eth0' }))
        .expect(200);
      const id = created.body.data.id as number;
      const res = await request(t.http)
        .post(`/v2/lead/update/${id}/`)
        .set('X-Api-Key', t.apiKey)
        .send({ ip: `fe80::1%${'a'.repeat(100)}` });
      expectRefused(res, 'ip', /64 characters/);
      expect((await t.ds.query(`SELECT ip FROM lead WHERE id = $1`, [id]))[0].ip).toBe('fe80::1%eth0');
    });
  });

  describe('the largest valid bodies', () => {
    it('stores a year of distinct holidays in Russian month names (the slowest layout)', async () => {
      const res = await send(HOLIDAY_YEAR);
      expect(res.status).toBe(200);
      const stored = await t.ds.query(`SELECT cardinality(call_holiday_overrides) AS n FROM call_order WHERE id = $1`, [res.body.data.id]);
      expect(stored[0].n).toBe(new Set(RUSSIAN_HOLIDAYS).size);
    });

    it('refuses 1,000 agentUserIds that do not exist by naming them', async () => {
      expect((await send(UNKNOWN_AGENTS)).status).toBe(400);
    });
  });

  describe('query strings', () => {
    const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey);

    it(`refuses parameters past ${QUERY_PARAMETER_LIMIT} instead of dropping them (250 leadIds[] then limit=3)`, async () => {
      const { field, message } = TOO_MANY_PARAMETERS.expected as { field: string; message: RegExp };
      expectRefused(await send(TOO_MANY_PARAMETERS), field, message);
      expect((await send(TOO_MANY_PARAMETERS, null)).status).toBe(401);
    });

    it(`caps ids per filter at ${MAX_IDS_PER_FILTER}, in every array form`, async () => {
      const ids = Array.from({ length: MAX_IDS_PER_FILTER + 1 }, (_, i) => i + 1);
      for (const q of [leadIdsQuery(MAX_IDS_PER_FILTER + 1), `leadIds=${ids.join(',')}`, `orderIds=${ids.join(',')}`]) {
        const res = await get(`/v2/call/?${q}`);
        expect(res.status).toBe(400);
        expect((res.body.data as { errors: { field: string; message: string }[] }).errors[0].message).toMatch(`at most ${MAX_IDS_PER_FILTER} ids`);
      }
      const ok = await get(`/v2/call/?${leadIdsQuery(MAX_IDS_PER_FILTER)}&limit=3`).expect(200);
      expect(ok.body.data.list).toEqual([]);
      await get(`/v2/lead/?orderIds=${ids.join(',')}`).expect(400);
    });

    it('accepts createdAt[0]=...T00:00:00+00:00 sent unencoded (the + arrives as a space)', async () => {
      const id = (await request(t.http).post('/v2/lead/create/').set('X-Api-Key', t.apiKey).send(leadBody(order)).expect(200)).body.data.id as number;
      const [{ at }] = await t.ds.query(`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS at FROM lead WHERE id = $1`, [id]);
      // Raw path: supertest must not encode the +.
      const res = await get(`/v2/lead/?createdAt[0]=${at}+00:00&createdAt[1]=${at}+00:00&limit=100`).expect(200);
      expect(res.body.data.list.map((l: { id: number }) => l.id)).toContain(id);
      await get(`/v2/lead/?createdAt[0]=2026-01-01 00:00`).expect(400);
    });
  });

  describe('the OpenAPI document states the caps', () => {
    it('has maxItems, maxLength and maxProperties on the fields and the body limit on each operation', async () => {
      const doc = (await request(t.http).get('/docs-json').set('X-Api-Key', t.apiKey).expect(200)).body;
      const props = (name: string) => doc.components.schemas[name].properties;
      expect(props('CreateOrderDto').callHolidayOverrides).toMatchObject({ maxItems: 366, items: { maxLength: 40 } });
      expect(props('CreateOrderDto').customValues).toMatchObject({ maxProperties: 200 });
      expect(props('CreateOrderDto').agentUserIds).toMatchObject({ maxItems: 1000 });
      expect(props('CreateOrderDto').transferNumbers).toMatchObject({ maxItems: 50 });
      expect(props('CreateLeadV2Dto').ip).toMatchObject({ maxLength: 64 });
      expect(props('CreateLeadV2Dto').customValues).toMatchObject({ maxProperties: 200 });
      expect(doc.paths['/v2/lead/create'].post.description).toMatch('Body limit: 256 KiB');
      expect(doc.paths['/v1/notification/public'].post.description).toMatch('Body limit: 32 KiB');
      expect(doc.info.description).toMatch(`at most ${QUERY_PARAMETER_LIMIT} parameters`);
    });
  });
});
