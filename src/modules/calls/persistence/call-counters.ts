import { CounterFilter, CounterSet } from '../../../database/counters/counter-set';
import { type CallFilter, NO_AGENT } from '../domain/call';

/**
 * Counters behind the exact `total` of GET /v2/call/ (database/counters; schema made by migration
 * 1763820000000-call-counters). Two sets, so each filter sums few counter rows:
 * - calls per (order, status) and UTC hour: order lists, with statusIds and createdAt;
 * - calls per (order, user, status) and UTC hour, calls without a user left out: order lists
 *   filtered by userIds (also with statusIds and createdAt). Adding the user to the first set
 *   would multiply its rows by the agents of an order and slow down every list without userIds.
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
 * How a call list counts its total:
 * - leadIds given (any other filters): exactly, from the calls of those leads via the
 *   (lead_id, id) index; a lead has a few calls (its dialing attempts), so this stays small;
 * - orderIds with userIds: the (order, user, status) counters; exactly when NO_AGENT is among
 *   them, as those counters leave out the calls without a user;
 * - orderIds without userIds: the (order, status) counters;
 * - neither (the service refuses such lists): exactly.
 * Counters take statusIds and createdAt ranges (whole days and hours from counters, the at most
 * two boundary hours counted exactly through the (order_id, created_at) index).
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
