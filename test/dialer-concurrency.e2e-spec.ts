import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { type ClaimedLead, createDialingOrder, createLeads } from './factories/dialer';
import { createSiblingApp, createTestApp, TestApp } from './support/test-app';

/** Parallel claims from two instances on one database never hand one lead to two live claims. */
describe('dialer claims under concurrency', () => {
  let t: TestApp;
  let sibling: NestExpressApplication;

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    sibling = await createSiblingApp(t);
  });
  afterAll(async () => {
    await sibling.close();
    await t.close();
  });

  it('20 parallel claims of 50 over 300 due leads: each lead handed out once, every one callable now', async () => {
    const orders = [await createDialingOrder(t, 2), await createDialingOrder(t, 1), await createDialingOrder(t, 1)];
    const leadIds = (await Promise.all(orders.map((o) => createLeads(t, o, 100)))).flat();
    const telephony = await t.keyWith('telephony');
    const servers = [t.http, sibling.getHttpServer()];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(servers[i % 2])
          .post('/v2/dialer/claim/')
          .set('X-Api-Key', telephony)
          .send({ dialerId: `dialer-${i}`, limit: 50, orderIds: orders.map((o) => o.id) }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const handed = answers.flatMap((a) => a.body.data.list as ClaimedLead[]);
    // Parallel claims skip the rows each other has locked, so some answer short; later claims hand out the rest.
    for (let more = handed.length; more > 0;) {
      const next = await request(t.http)
        .post('/v2/dialer/claim/')
        .set('X-Api-Key', telephony)
        .send({ dialerId: 'sweeper', limit: 50, orderIds: orders.map((o) => o.id) });
      more = next.body.data.list.length;
      handed.push(...next.body.data.list);
    }
    const ids = handed.map((l) => l.leadId);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual([...leadIds].sort((a, b) => a - b));
    const [{ live, leads }] = await t.ds.query(
      `SELECT count(*)::int AS live, count(DISTINCT lead_id)::int AS leads FROM dialer_claim WHERE lead_id = ANY($1) AND lease_expires_at > now()`,
      [leadIds],
    );
    expect({ live, leads }).toEqual({ live: 300, leads: 300 });
    // Every claimed lead is one the decision has callable now (a sample through GET /v2/lead/callable/).
    for (const id of ids.filter((_, i) => i % 15 === 0)) {
      const c = (await request(t.http).get(`/v2/lead/callable/${id}/`).set('X-Api-Key', t.apiKey).expect(200)).body.data;
      expect(c).toMatchObject({ callableNow: true, reasons: [] });
    }
    // All held: another round hands out nothing.
    const again = await request(sibling.getHttpServer())
      .post('/v2/dialer/claim/')
      .set('X-Api-Key', telephony)
      .send({ dialerId: 'late', limit: 500, orderIds: orders.map((o) => o.id) })
      .expect(200);
    expect(again.body.data.list).toEqual([]);
  });

  it('parallel claims racing releases and expiries still hold each lead in at most one live claim', async () => {
    const order = await createDialingOrder(t);
    const leadIds = await createLeads(t, order, 120);
    const telephony = await t.keyWith('telephony');
    const servers = [t.http, sibling.getHttpServer()];
    let previous: ClaimedLead[] = [];
    for (let round = 0; round < 4; round++) {
      // The last round's claims: half given back, half expired (moved to the past), while this round claims.
      const back = previous.filter((_, i) => i % 2 === 0).map((l) => l.claimToken);
      const expire = previous.filter((_, i) => i % 2 === 1).map((l) => l.claimToken);
      const [released, , ...answers] = await Promise.all([
        back.length
          ? request(servers[round % 2])
              .post('/v2/dialer/release/')
              .set('X-Api-Key', telephony)
              .send({ claimTokens: back })
          : null,
        t.ds.query(`UPDATE dialer_claim SET lease_expires_at = now() - interval '1 second' WHERE claim_token = ANY($1::uuid[])`, [expire]),
        ...Array.from({ length: 10 }, (_, i) =>
          request(servers[i % 2])
            .post('/v2/dialer/claim/')
            .set('X-Api-Key', telephony)
            .send({ dialerId: `r${round}-${i}`, limit: 20, orderIds: [order.id] }),
        ),
      ]);
      expect([released?.status ?? 200, ...answers.map((a) => a.status)]).toEqual(Array(11).fill(200));
      const handed = answers.flatMap((a) => a.body.data.list as ClaimedLead[]);
      expect(new Set(handed.map((l) => l.leadId)).size).toBe(handed.length);
      const [{ twice }] = await t.ds.query(
        `SELECT count(*)::int AS twice FROM (SELECT lead_id FROM dialer_claim WHERE lease_expires_at > now() GROUP BY lead_id HAVING count(*) > 1) x`,
      );
      expect(twice).toBe(0);
      previous = handed;
    }
    expect(leadIds).toHaveLength(120);
  });
});
