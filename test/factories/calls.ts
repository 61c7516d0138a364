import request from 'supertest';
import type { TestApp } from '../support/test-app';
import { createSipEndpoint, createUser } from './reference';

/** Calls recorded through `POST /v2/call/create/` with a telephony key, as the platform records them. */

/** The first non-callback call status of a category. */
export async function callStatusId(t: TestApp, category: 'answered' | 'not-answered' | 'failed'): Promise<number> {
  const rows = await t.ds.query<{ id: number }[]>(`SELECT id FROM call_status WHERE category = $1 AND NOT is_callback ORDER BY id LIMIT 1`, [category]);
  return rows[0].id;
}

/** The catalogue's first status of each kind: answered, no answer, failed (none of them a callback), and a callback. */
export async function callStatusKinds(t: TestApp): Promise<Record<'answered' | 'noAnswer' | 'failed' | 'callback', number>> {
  const statuses: { id: number; category: string; is_callback: boolean }[] = await t.ds.query(`SELECT id, category, is_callback FROM call_status ORDER BY id`);
  return {
    answered: statuses.find((s) => s.category === 'answered' && !s.is_callback)!.id,
    noAnswer: statuses.find((s) => s.category === 'not-answered' && !s.is_callback)!.id,
    failed: statuses.find((s) => s.category === 'failed')!.id,
    callback: statuses.find((s) => s.is_callback)!.id,
  };
}

export interface RecordedCall {
  leadId: number;
  orderId: number;
  platformCallId: string;
  statusId: number;
  totalDurationSeconds: number;
  waitTimeDurationSeconds: number;
  talkTimeDurationSeconds: number;
  startedAt: Date;
  optOut?: boolean;
}

/** Records a call by an agent on a new SIP endpoint; returns the call id. */
export async function recordCall(t: TestApp, c: RecordedCall): Promise<number> {
  const res = await request(t.http)
    .post('/v2/call/create/')
    .set('X-Api-Key', await t.keyWith('telephony'))
    .send({
      leadId: c.leadId,
      orderId: c.orderId,
      platformCallId: c.platformCallId,
      sipEndpointId: await createSipEndpoint(t),
      userId: await createUser(t, { accessGroup: 'call-center' }),
      statusId: c.statusId,
      direction: 'outgoing',
      totalDurationSeconds: c.totalDurationSeconds,
      waitTimeDurationSeconds: c.waitTimeDurationSeconds,
      talkTimeDurationSeconds: c.talkTimeDurationSeconds,
      startedAt: c.startedAt.toISOString(),
      optOut: c.optOut,
    });
  if (res.status !== 200) throw new Error(`/v2/call/create/ answered ${res.status}: ${JSON.stringify(res.body)}`);
  return (res.body as { data: { id: number } }).data.id;
}
