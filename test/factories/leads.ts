import request from 'supertest';
import type { TestApp } from '../support/test-app';

let seq = 0;

export interface TestOrder {
  id: number;
  code: string;
}

/** "Any time": every day 00:00-24:00 (seven `[]` would be seven days off). */
export const ANY_TIME = Array.from({ length: 7 }, () => ['00:00', '24:00']);

/** An order row straight in SQL (leads need only its settings); `schedule` defaults to "any time". */
export async function createLeadOrder(
  t: TestApp,
  opts: { schedule?: unknown[]; holidays?: string[]; ignoreLeadTimezone?: boolean; defaultUtcOffset?: number; qualifiedLimit?: number | null } = {},
): Promise<TestOrder> {
  seq += 1;
  const code = `lead-test-${process.pid}-${seq}`;
  const rows: { id: number }[] = await t.ds.query(
    `INSERT INTO call_order (code, service_title, title, status, call_schedule, call_holiday_overrides, ignore_lead_timezone,
                             default_utc_offset, qualified_leads_per_day_limit)
     VALUES ($1, $2, $2, 'success', $3, $4::date[], $5, $6, $7) RETURNING id`,
    [
      code,
      `Lead test order ${seq}`,
      JSON.stringify(opts.schedule ?? ANY_TIME),
      opts.holidays ?? [],
      opts.ignoreLeadTimezone ?? false,
      opts.defaultUtcOffset ?? 0,
      opts.qualifiedLimit ?? null,
    ],
  );
  return { id: rows[0].id, code };
}

/** A phone number of Russia's mobile range, unique per call within a run. */
export function testPhone(n?: number): string {
  seq += 1;
  return `+7916${String(n ?? (process.pid * 1000 + seq) % 10_000_000).padStart(7, '0')}`;
}

export function leadBody(order: TestOrder, extra: Record<string, unknown> = {}) {
  return { leadType: 'straight', phone: testPhone(), orderId: order.id, orderCode: order.code, ...extra };
}

/** Creates a lead through POST /v2/lead/create/ and returns its id. */
export async function createLead(t: TestApp, order: TestOrder, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await request(t.http).post('/v2/lead/create/').set('X-Api-Key', t.apiKey).send(leadBody(order, extra));
  if (res.status !== 200) throw new Error(`lead create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as number;
}
