import { Pool } from 'pg';
import type { Case, Filter } from '../lists';
import { Population } from './realistic-data';

/** Client C of the benches: every third order of the population, interleaved with the others. */
export interface BenchClient {
  id: number;
  orderIds: number[];
  /** C's largest order (~24% of the leads), a small one (~0.9%), and a mid one (~6%). */
  big: number;
  small: number;
  mid: number;
}

/** All 34 orders of the population. */
const allOrders = (pop: Population) => [...pop.zipf, pop.paused, pop.ends, ...pop.tiny];

/** Makes C the client of every third order: zipf 1, 4, ... 28, the paused-resumed one and a tiny one (about 45% of the leads). */
export async function assignBenchClient(pool: Pool, pop: Population): Promise<BenchClient> {
  const [{ id }] = (await pool.query(`INSERT INTO client (name) VALUES ('Bench client') RETURNING id`)).rows as { id: number }[];
  const orderIds = allOrders(pop).filter((_, i) => i % 3 === 0);
  await pool.query(`UPDATE call_order SET client_id = $1 WHERE id = ANY($2)`, [id, orderIds]);
  return { id, orderIds, big: pop.zipf[0], small: pop.zipf[27], mid: pop.zipf[3] };
}

/** An `api` key made through the running app with its admin key: a client key when `clientId` is set, else an unrestricted one. */
export async function createApiKey(url: string, adminKey: string, name: string, clientId: number | null): Promise<string> {
  const res = await fetch(`${url}/v2/api-key/create/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
    body: JSON.stringify({ name, scopes: ['api'], ...(clientId === null ? {} : { clientId }) }),
  });
  const body = (await res.json()) as { data: { key?: string } };
  if (res.status !== 200 || !body.data.key) throw new Error(`POST /v2/api-key/create/: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.data.key;
}

/** The phone of C's lead that arrived nearest before the 1234th arrival: in the table at every size, as the unrestricted lookup's. */
export async function clientPhone(pool: Pool, client: BenchClient): Promise<string> {
  const { rows } = await pool.query(`SELECT phone FROM lead WHERE order_id = ANY($1) AND id <= (SELECT min(id) + 1234 FROM lead) ORDER BY id DESC LIMIT 1`, [
    client.orderIds,
  ]);
  return (rows[0] as { phone: string }).phone;
}

/** C's share of the leads, in percent. */
export async function clientLeadsPercent(pool: Pool, client: BenchClient): Promise<number> {
  const { rows } = await pool.query(`SELECT round(100.0 * count(*) FILTER (WHERE order_id = ANY($1)) / count(*), 1) AS share FROM lead`, [client.orderIds]);
  return Number((rows[0] as { share: string }).share);
}

/**
 * The list cases requested with C's key, each `total` checked against count(*) over C's orders; and C's orders as an unrestricted
 * key's orderIds: the same rows without the reach (the cost of reading the client's order ids per request).
 */
export function clientCases(kind: 'leads' | 'calls', pop: Population, client: BenchClient, phone: string, ranges: { middle: Filter; day: Filter }): Case[] {
  // The call list needs orderIds or leadIds: there, all of C's orders.
  const own: Filter = kind === 'leads' ? {} : { orderIds: client.orderIds };
  const notOwn = pop.zipf[1];
  const cases: Case[] = [
    { name: kind === 'leads' ? 'client key: no filter' : 'client key: all its orders', filter: own, client: true },
    { name: 'unrestricted: the client orders as orderIds', filter: { orderIds: client.orderIds } },
    { name: 'client key: its big order', filter: { orderIds: [client.big] }, client: true },
    { name: 'client key: its small order', filter: { orderIds: [client.small] }, client: true },
    // Orders not C's add nothing: C's rows only, or an empty page.
    { name: 'client key: its order + an order not its own', filter: { orderIds: [client.big, notOwn] }, client: true },
    { name: 'client key: all 34 orders named', filter: { orderIds: allOrders(pop) }, client: true },
    { name: 'client key: an order not its own', filter: { orderIds: [notOwn] }, client: true },
    { name: 'client key: createdAt middle 40%', filter: { ...own, ...ranges.middle }, client: true },
  ];
  if (kind === 'calls')
    return [...cases, { name: 'client key: its big order + statuses 4,5', filter: { orderIds: [client.big], statusIds: [4, 5] }, client: true }];
  return [
    ...cases,
    { name: 'client key: createdAt last day', filter: { ...ranges.day }, client: true },
    { name: 'client key: status only (1 in 15)', filter: { statusIds: [30] }, client: true },
    { name: 'client key: lookup phone', filter: { phone }, client: true },
  ];
}
