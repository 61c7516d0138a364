import { CounterSet } from '../../../database/counters/counter-set';

/**
 * Planned calls per order and UTC hour of `planning_call_at`: the order stats' `callableNow` and `dueWithinHour` sum counter rows
 * (a year of planned hours is ~365 day rows) instead of reading the order's due leads, however many there are.
 */
export const LEAD_PLANNING_COUNTERS = new CounterSet({
  name: 'lead_planning_count',
  table: 'lead',
  dimensions: ['order_id'],
  nullable: ['planning_call_at'],
  timeColumn: 'planning_call_at',
  idColumn: 'id',
});
