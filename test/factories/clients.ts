import { ApiKeysService } from '../../src/modules/auth/api-keys.service';
import type { TestApp } from '../support/test-app';

let seq = 0;

/** A client row straight in SQL (set-up only); returns its id. */
export async function insertClient(t: TestApp, name = `client-${process.pid}-${++seq}`): Promise<number> {
  const rows: { id: number }[] = await t.ds.query(`INSERT INTO client (name) VALUES ($1) RETURNING id`, [name]);
  return rows[0].id;
}

/** Gives the order to the client (null: the call center's own again). */
export async function assignOrderToClient(t: TestApp, orderId: number, clientId: number | null): Promise<void> {
  await t.ds.query(`UPDATE call_order SET client_id = $1 WHERE id = $2`, [clientId, orderId]);
}

/** A key of scope `api` bound to the client, bound before its first request (verified keys are cached). */
export async function clientKeyFor(t: TestApp, clientId: number): Promise<string> {
  const { id, key } = await t.app.get(ApiKeysService).create(`client-${clientId}-key-${process.pid}-${++seq}`, ['api']);
  await t.ds.query(`UPDATE api_key SET client_id = $1 WHERE id = $2`, [clientId, id]);
  return key;
}
