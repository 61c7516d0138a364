import request from 'supertest';
import type { TestApp } from '../support/test-app';

/** Clients, their orders and client keys, set up through the management API with the test app's all-scope key. */

let seq = 0;

async function post<T>(t: TestApp, path: string, body: object): Promise<T> {
  const res = await request(t.http).post(path).set('X-Api-Key', t.apiKey).send(body);
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return (res.body as { data: T }).data;
}

export async function insertClient(t: TestApp, name = `Client ${Date.now().toString(36)}-${++seq}`): Promise<number> {
  return (await post<{ id: number }>(t, '/v2/client/create/', { name })).id;
}

/** Moves the order to the client (null: the call center's own), as an operator does. */
export async function assignOrderToClient(t: TestApp, orderId: number, clientId: number | null): Promise<void> {
  await post(t, `/v2/order/update/${orderId}/`, { clientId });
}

/** A new key of scope `api` bound to the client. */
export async function clientKeyFor(t: TestApp, clientId: number): Promise<string> {
  const name = `client-${clientId}-${Date.now().toString(36)}-${++seq}`;
  return (await post<{ key: string }>(t, '/v2/api-key/create/', { name, scopes: ['api'], clientId })).key;
}

/**
 * A response as a caller sees it with the object's id masked: a foreign object must answer
 * exactly like an unknown one (same status, same body but for the id).
 */
export function answerWithoutId(res: { status: number; body: unknown }, id: number): { status: number; body: string } {
  return { status: res.status, body: JSON.stringify(res.body).replace(new RegExp(`\\b${id}\\b`, 'g'), '<id>') };
}
