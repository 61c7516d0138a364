import { DateTime } from 'luxon';
import request from 'supertest';
import type { TestApp } from '../support/test-app';
import { createLeadOrder, type TestOrder } from './leads';

/** A fixed UTC offset (hours) that puts a lead near its local noon now, far from the edges of its day. */
export function noonOffset(): number {
  return Math.max(-12, Math.min(14, 12 - new Date().getUTCHours()));
}

/** The start of the next local day of a lead at noonOffset(), in epoch ms. */
export function nextLocalMidnight(): number {
  const offset = noonOffset();
  return DateTime.utc()
    .setZone(`UTC${offset >= 0 ? '+' : ''}${offset}`)
    .plus({ days: 1 })
    .startOf('day')
    .toMillis();
}

/** An order dialling any time with a 10-minute redial (repeated), autodialing on, and the dialing rules given. */
export async function redialOrder(t: TestApp, rules: { maxAttemptsPerDay?: number | null; consentRequired?: boolean } = {}): Promise<TestOrder> {
  const o = await createLeadOrder(t);
  const [group] = await t.ds.query<{ id: number }[]>(
    `INSERT INTO call_attempt_group (title, intervals, repeat_last_interval) VALUES ($1, '{10}', true) RETURNING id`,
    [`redial-${o.id}`],
  );
  const res = await request(t.http)
    .post(`/v2/order/update/${o.id}/`)
    .set('X-Api-Key', t.apiKey)
    .send({ autoDialingEnabled: true, callAttemptGroupId: group.id, ...rules });
  if (res.status !== 200) throw new Error(`order update failed: ${res.status} ${JSON.stringify(res.body)}`);
  return o;
}
