import request from 'supertest';
import type { DataSource } from 'typeorm';
import type { TestApp } from '../support/test-app';

/**
 * Reference rows an order points at, inserted with SQL (their management endpoints live in other
 * modules). Natural keys carry a counter so several calls in one database never collide.
 */
let seq = 0;
const next = () => ++seq;

export async function insertUser(ds: DataSource, fields: { email?: string; name?: string } = {}): Promise<number> {
  const n = next();
  const [{ id }] = await ds.query(`INSERT INTO app_user (name, last_name, email, access_group) VALUES ($1, $2, $3, 'call-center') RETURNING id`, [
    fields.name ?? `Агент ${n}`,
    'Тестов',
    fields.email ?? `agent${n}.${Date.now()}@test.example`,
  ]);
  return id;
}

export async function insertAgentGroup(ds: DataSource, names: Record<string, string> = {}): Promise<number> {
  const n = next();
  const [{ id }] = await ds.query(`INSERT INTO agent_group (names) VALUES ($1::jsonb) RETURNING id`, [
    JSON.stringify({ ru: `Группа ${n}`, gb: `Group ${n}`, ...names }),
  ]);
  return id;
}

export async function insertSipEndpoint(ds: DataSource, number?: string): Promise<number> {
  const n = next();
  const [{ id }] = await ds.query(`INSERT INTO sip_endpoint (number, title) VALUES ($1, $2) RETURNING id`, [
    number ?? `+7495${String(1000000 + n * 7919).slice(-7)}`,
    `Линия ${n}`,
  ]);
  return id;
}

export async function insertCallScenario(ds: DataSource, title = 'Квалификация'): Promise<number> {
  const [{ id }] = await ds.query(`INSERT INTO call_scenario (title) VALUES ($1) RETURNING id`, [`${title} ${next()}`]);
  return id;
}

export async function insertCallAttemptGroup(ds: DataSource, opts: { isDefault?: boolean; intervals?: number[] } = {}): Promise<number> {
  const [{ id }] = await ds.query(`INSERT INTO call_attempt_group (title, intervals, is_default) VALUES ($1, $2, $3) RETURNING id`, [
    `Интервалы ${next()}`,
    opts.intervals ?? [15, 60, 240],
    opts.isDefault ?? false,
  ]);
  return id;
}

export interface OrderRefs {
  users: number[];
  groups: number[];
  sips: number[];
  scenario: number;
  defaultAttemptGroup: number;
  otherAttemptGroup: number;
}

/** Three agents, two groups, three numbers, a scenario, the default attempt group and another one. */
export async function insertOrderReferences(ds: DataSource): Promise<OrderRefs> {
  return {
    users: [await insertUser(ds), await insertUser(ds), await insertUser(ds)],
    groups: [await insertAgentGroup(ds), await insertAgentGroup(ds)],
    sips: [await insertSipEndpoint(ds), await insertSipEndpoint(ds), await insertSipEndpoint(ds)],
    scenario: await insertCallScenario(ds),
    defaultAttemptGroup: await insertCallAttemptGroup(ds, { isDefault: true }),
    otherAttemptGroup: await insertCallAttemptGroup(ds),
  };
}

/** The smallest valid create body. */
export function minimalOrderBody(refs: OrderRefs, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { serviceTitle: 'Тестовый заказ', title: 'Тестовый заказ', status: 'success', sipEndpointIds: [refs.sips[0]], ...overrides };
}

export async function createOrder(t: TestApp, body: Record<string, unknown>): Promise<number> {
  const res = await request(t.http).post('/v2/order/create/').set('X-Api-Key', t.apiKey).send(body);
  if (res.status !== 200) throw new Error(`order create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

/** Row counts of the order tables, to assert that a rejected request stored nothing. */
export async function orderTableCounts(ds: DataSource): Promise<Record<string, number>> {
  const [row] = await ds.query(`SELECT
      (SELECT count(*)::int FROM call_order) AS orders,
      (SELECT count(*)::int FROM order_agent) AS agents,
      (SELECT count(*)::int FROM order_agent_group) AS groups,
      (SELECT count(*)::int FROM order_sip_endpoint) AS sips,
      (SELECT count(*)::int FROM order_transfer_number) AS transfers`);
  return row;
}
