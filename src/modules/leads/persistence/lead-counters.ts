import { CounterFilter, CounterSet } from '../../../database/counters/counter-set';
import type { LeadFilter } from '../domain/lead';

/**
 * Leads per (order, status) and UTC hour of creation: the exact `total` of every lead list
 * (filters: orderIds, statusIds, createdAt). Schema made by migration 1763790000000-leads; the
 * rollup over orders (lists without orderIds) by 1763864200000-lead-count-rollups.
 */
export const LEAD_COUNTERS = new CounterSet({
  name: 'lead_count',
  table: 'lead',
  dimensions: ['order_id', 'status_id'],
  timeColumn: 'created_at',
  idColumn: 'id',
  rollup: 'order_id',
});

export const leadCounterFilter = (f: LeadFilter): CounterFilter => ({
  keys: { order_id: f.orderIds, status_id: f.statusIds },
  from: f.createdFrom ?? null,
  to: f.createdTo ?? null,
});
