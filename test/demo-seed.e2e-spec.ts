import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { createTestApp, TestApp } from './support/test-app';

/** The demo dataset a newcomer explores first: every step runs, once, and the API serves it. */
describe('demo dataset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('seeds every domain once and the API reads it back', async () => {
    const seeder = t.app.get(DemoSeeder);
    const first = await seeder.run();
    expect(first).toEqual(expect.arrayContaining(['orders', 'leads', 'calls']));
    expect(await seeder.run()).toEqual([]);
    const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey).expect(200);
    expect((await get('/v2/order/')).body.data.total).toBeGreaterThanOrEqual(4);
    expect((await get('/v2/user/list/')).body.data.total).toBeGreaterThanOrEqual(15);
    expect((await get('/v2/agent-group/')).body.data.total).toBeGreaterThanOrEqual(3);
    expect((await get('/v2/custom-field/')).body.data.length).toBeGreaterThanOrEqual(8);
    const leads = (await get('/v2/lead/?limit=100')).body.data;
    expect(leads.total).toBeGreaterThanOrEqual(200);
    expect(leads.list.some((l: { isSecondary: boolean }) => l.isSecondary)).toBe(true);
    const calls = (await get('/v2/call/?orderIds=1,2,3,4,5&limit=100')).body.data;
    expect(calls.total).toBeGreaterThan(100);
    // Each lead's attempt count matches its calls.
    const mismatch = await t.ds.query(
      `SELECT l.id FROM lead l LEFT JOIN (SELECT lead_id, count(*)::int AS n FROM call GROUP BY lead_id) c ON c.lead_id = l.id
       WHERE l.attempt_count <> coalesce(c.n, 0)`,
    );
    expect(mismatch).toEqual([]);
  });

  it('is consistent in time: users join, then orders open, then leads arrive and are called; logins after joining', async () => {
    const q = (sql: string) => t.ds.query(sql);
    // Users: joined before they last logged in, last activity after that login, nothing in the future.
    expect(
      await q(
        `SELECT email FROM app_user WHERE last_login_at < created_at OR last_activity_at < last_login_at OR last_activity_at > now() OR created_at > now()`,
      ),
    ).toEqual([]);
    expect((await q(`SELECT count(*)::int AS n FROM app_user WHERE last_login_at IS NOT NULL`))[0].n).toBeGreaterThan(5);
    // Orders: opened after their agents joined, before their first lead; launched on or after the day they opened.
    expect(
      await q(`SELECT o.id FROM call_order o JOIN order_agent oa ON oa.order_id = o.id JOIN app_user u ON u.id = oa.user_id WHERE u.created_at > o.created_at`),
    ).toEqual([]);
    expect(await q(`SELECT l.id FROM lead l JOIN call_order o ON o.id = l.order_id WHERE l.created_at < o.created_at OR l.created_at > now()`)).toEqual([]);
    expect(
      await q(`SELECT o.id FROM call_order o JOIN custom_field f ON f.essence = 'orders' AND f.title = 'Дата запуска'
               WHERE (o.custom_values->>(f.id::text))::date < o.created_at::date`),
    ).toEqual([]);
    expect((await q(`SELECT count(*)::int AS n FROM call_order WHERE created_at < now() - interval '21 days'`))[0].n).toBeGreaterThanOrEqual(4);
    // Calls: after the lead they call.
    expect(await q(`SELECT c.id FROM call c JOIN lead l ON l.id = c.lead_id WHERE c.created_at < l.created_at`)).toEqual([]);
  });

  it("gives each lead custom values that fit its order's niche", async () => {
    const rows: { niche: string; interest: string | null; budget: number | null }[] = await t.ds.query(
      `SELECT o.custom_values->>(fn.id::text) AS niche, l.custom_values->>(fi.id::text) AS interest, (l.custom_values->>(fb.id::text))::bigint AS budget
         FROM lead l JOIN call_order o ON o.id = l.order_id
         JOIN custom_field fn ON fn.essence = 'orders' AND fn.title = 'Ниша'
         JOIN custom_field fi ON fi.essence = 'leads' AND fi.title = 'Интерес'
         JOIN custom_field fb ON fb.essence = 'leads' AND fb.title = 'Бюджет'`,
    );
    const fits: Record<string, (string | null)[]> = {
      real_estate: ['flat', 'house', null],
      education: ['course', 'consultation', null],
      medicine: ['consultation', null],
      support: [null],
    };
    const misfits = rows.filter((r) => !(fits[r.niche] ?? [null]).includes(r.interest) || (r.budget !== null && r.niche !== 'real_estate'));
    expect(misfits).toEqual([]);
    // Every niche with interests really has some (the check above is not vacuous).
    for (const niche of ['real_estate', 'education', 'medicine']) expect(rows.some((r) => r.niche === niche && r.interest !== null)).toBe(true);
  });

  it("answers the README's client-key example: client 1 sees order 3 and lead 2, and client 2's lead 3 as a missing lead", async () => {
    await t.app.get(DemoSeeder).run();
    const admin = (path: string, body: object) => request(t.http).post(path).set('X-Api-Key', t.apiKey).send(body).expect(200);
    const key = (await admin('/v2/api-key/create/', { name: 'crm-dental-readme', scopes: ['api'], clientId: 1 })).body.data.key as string;
    const get = (path: string) => request(t.http).get(path).set('X-Api-Key', key);
    const orders = (await get('/v2/order/').expect(200)).body.data;
    expect({ total: orders.total, ids: orders.list.map((o: { id: number }) => o.id) }).toEqual({ total: 1, ids: [3] });
    expect((await get('/v2/lead/detail/2/').expect(200)).body.data.orderId).toBe(3);
    const foreign = await get('/v2/lead/detail/3/').expect(404);
    const missing = await get('/v2/lead/detail/999999/').expect(404);
    expect(foreign.body.message.replace('3', 'ID')).toBe(missing.body.message.replace('999999', 'ID'));
  });

  it("the README's CKEY command, run twice a second apart, gives a client key both times (never an error body)", async () => {
    const readme = readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    const command = /^CKEY=\$\(curl[^\n]*\n[^\n]*\)/m.exec(readme)?.[0];
    expect(command).toBeDefined();
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const script = `H="X-Api-Key: ${t.apiKey}"\n${command!.replaceAll('localhost:3000', `127.0.0.1:${port}`)}\nprintf %s "$CKEY"`;
      // Asynchronously: the server answering curl runs in this process.
      const run = async () => (await promisify(execFile)('bash', ['-c', script], { timeout: 10_000 })).stdout;
      const first = await run();
      await new Promise((r) => setTimeout(r, 1100));
      const second = await run();
      for (const key of [first, second]) expect(key).toMatch(/^cck_[A-Za-z0-9_-]{20,}$/);
      expect(second).not.toBe(first);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
