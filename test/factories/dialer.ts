import request from 'supertest';
import type { TestApp } from '../support/test-app';
import { createLeadOrder, leadBody, type TestOrder } from './leads';

/** An order that dials (autodialing on) with a dialWeight, set through POST /v2/order/update/. */
export async function createDialingOrder(t: TestApp, dialWeight = 1, opts: Parameters<typeof createLeadOrder>[1] = {}): Promise<TestOrder> {
  const order = await createLeadOrder(t, opts);
  const res = await request(t.http).post(`/v2/order/update/${order.id}/`).set('X-Api-Key', t.apiKey).send({ autoDialingEnabled: true, dialWeight });
  if (res.status !== 200) throw new Error(`order update answered ${res.status}: ${JSON.stringify(res.body)}`);
  return order;
}

/** `n` leads of `order` through POST /v2/lead/create-batch/ (each with `extra(i)`); their ids in order. */
export async function createLeads(t: TestApp, order: TestOrder, n: number, extra: (i: number) => Record<string, unknown> = () => ({})): Promise<number[]> {
  const ids: number[] = [];
  for (let from = 0; from < n; from += 500) {
    const leads = Array.from({ length: Math.min(500, n - from) }, (_, i) => leadBody(order, extra(from + i)));
    const res = await request(t.http).post('/v2/lead/create-batch/').set('X-Api-Key', t.apiKey).send({ leads });
    if (res.status !== 200) throw new Error(`create-batch answered ${res.status}: ${JSON.stringify(res.body)}`);
    for (const r of res.body.data.results as { id?: number; errors?: unknown }[]) {
      if (!r.id) throw new Error(`a batch lead failed: ${JSON.stringify(r)}`);
      ids.push(r.id);
    }
  }
  return ids;
}

export interface ClaimedLead {
  claimToken: string;
  leaseExpiresAt: string;
  leadId: number;
  orderId: number;
  phone: string;
  priority: number;
  attempt: number;
  planningCallDateTime: string;
}
