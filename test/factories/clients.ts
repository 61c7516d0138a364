import { ApiKeysService } from '../../src/modules/auth/api-keys.service';
import type { TestApp } from '../support/test-app';

/**
 * Clients and client keys, set up with SQL through the test app's data source (set-up only: the
 * behaviour under test goes through HTTP).
 */

let seq = 0;

export async function insertClient(t: TestApp, name = `Client ${Date.now().toString(36)}-${++seq}`): Promise<number> {
  const [{ id }] = await t.ds.query<{ id: number }[]>(`INSERT INTO client (name) VALUES ($1) RETURNING id`, [name]);
  return id;
}

export async function assignOrderToClient(t: TestApp, orderId: number, clientId: number | null): Promise<void> {
  await t.ds.query(`UPDATE call_order SET client_id = $1 WHERE id = $2`, [clientId, orderId]);
}

/** A new key of scope `api` bound to the client (bound before its first request: verified keys are cached). */
export async function clientKeyFor(t: TestApp, clientId: number): Promise<string> {
  const { id, key } = await t.app.get(ApiKeysService).create(`client-${clientId}-${Date.now().toString(36)}-${++seq}`, ['api']);
  await t.ds.query(`UPDATE api_key SET client_id = $1 WHERE id = $2`, [clientId, id]);
  return key;
}

/**
 * A response as a caller sees it with the object's id masked: a foreign object must answer
 * exactly like an unknown one (same status, same body but for the id).
 */
export function answerWithoutId(res: { status: number; body: unknown }, id: number): { status: number; body: string } {
  return { status: res.status, body: JSON.stringify(res.body).replace(new RegExp(`\\b${id}\\b`, 'g'), '<id>') };
}
