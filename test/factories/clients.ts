import { ApiKeysService } from '../../src/modules/auth/api-keys.service';
import type { TestApp } from '../support/test-app';

/** Clients and client keys for set-up, through SQL; the behaviour under test goes through HTTP. */
let seq = 0;

export async function insertClient(t: TestApp, name = `Client ${++seq} ${Date.now()}`): Promise<number> {
  const [{ id }] = await t.ds.query(`INSERT INTO client (name) VALUES ($1) RETURNING id`, [name]);
  return id;
}

export async function assignOrderToClient(t: TestApp, orderId: number, clientId: number | null): Promise<void> {
  await t.ds.query(`UPDATE call_order SET client_id = $1 WHERE id = $2`, [clientId, orderId]);
}

/** A key of scope api bound to `clientId` (set before its first request: verified keys are cached). */
export async function clientKeyFor(t: TestApp, clientId: number): Promise<string> {
  const { id, key } = await t.app.get(ApiKeysService).create(`client-${clientId}-${++seq}-${Date.now()}`, ['api']);
  await t.ds.query(`UPDATE api_key SET client_id = $1 WHERE id = $2`, [clientId, id]);
  return key;
}
