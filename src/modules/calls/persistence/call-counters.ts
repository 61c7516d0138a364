import { CounterFilter, CounterSet } from '../../../database/counters/counter-set';
import { type CallFilter, NO_AGENT } from '../domain/call';

/**
 * Counters behind the exact `total` of GET /v2/call/, in two sets so each filter sums few rows: calls per (order, status) and
 * UTC hour, and per (order, user, status) and UTC hour (calls without a user left out) for lists filtered by userIds. The user
 * is not in the first set: it would multiply its rows by an order's agents and slow every list without userIds.
 */
export const CALL_COUNTERS = new CounterSet({
  name: 'call_count',
  table: 'call',
  dimensions: ['order_id', 'status_id'],
  timeColumn: 'created_at',
  idColumn: 'id',
});

export const CALL_USER_COUNTERS = new CounterSet({
  name: 'call_user_count',
  table: 'call',
  dimensions: ['order_id', 'user_id', 'status_id'],
  nullable: ['user_id'],
  timeColumn: 'created_at',
  idColumn: 'id',
});

/**
 * How a call list counts its total: with leadIds, exactly through (lead_id, id) (a lead has few calls); with orderIds, from the
 * (order, user, status) counters when userIds are given (exactly when NO_AGENT is among them), else the (order, status) ones;
 * otherwise exactly. Counters cover whole hours of createdAt; the two boundary hours are counted exactly via (order_id, created_at).
 */
export type CallCounting = { kind: 'exact' } | { kind: 'counters'; set: CounterSet; filter: CounterFilter };

export function callCounting(f: CallFilter): CallCounting {
  if (f.leadIds?.length || !f.orderIds?.length || f.userIds?.includes(NO_AGENT)) return { kind: 'exact' };
  const range = { from: f.from ?? null, to: f.to ?? null };
  if (f.userIds?.length) {
    return { kind: 'counters', set: CALL_USER_COUNTERS, filter: { keys: { order_id: f.orderIds, user_id: f.userIds, status_id: f.statusIds }, ...range } };
  }
  return { kind: 'counters', set: CALL_COUNTERS, filter: { keys: { order_id: f.orderIds, status_id: f.statusIds }, ...range } };
}
