import { ApiKeysService } from '../../src/modules/auth/api-keys.service';
import type { TestApp } from '../support/test-app';

/**
 * Clients and client keys, set up with SQL (the client API is not what these tests are about).
 * A key's client is set before its first request: verified keys are cached.
 */

let seq = 0;

export async function insertClient(t: TestApp, name = `Client ${process.pid}-${++seq}`): Promise<number> {
  const [{ id }] = await t.ds.query<{ id: number }[]>(`INSERT INTO client (name) VALUES ($1) RETURNING id`, [name]);
  return id;
}

export async function assignOrderToClient(t: TestApp, orderId: number, clientId: number | null): Promise<void> {
  await t.ds.query(`UPDATE call_order SET client_id = $1 WHERE id = $2`, [clientId, orderId]);
}

/** A key of scope `api` bound to `clientId`. */
export async function clientKeyFor(t: TestApp, clientId: number): Promise<string> {
  const { id, key } = await t.app.get(ApiKeysService).create(`client-${clientId}-${process.pid}-${++seq}`, ['api']);
  await t.ds.query(`UPDATE api_key SET client_id = $1 WHERE id = $2`, [clientId, id]);
  return key;
}
