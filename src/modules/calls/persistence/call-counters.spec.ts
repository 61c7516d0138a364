import { CALL_COUNTERS, CALL_USER_COUNTERS, callCounting } from './call-counters';

describe('callCounting', () => {
  const from = new Date('2026-11-01T10:30:00Z');

  it('counts exactly whenever leadIds are given: a lead has few calls', () => {
    expect(callCounting({ leadIds: [1] })).toEqual({ kind: 'exact' });
    expect(callCounting({ leadIds: [1], orderIds: [2], userIds: [3], statusIds: [1], from })).toEqual({ kind: 'exact' });
  });

  it('uses the (order, status) counters for order lists without a user filter', () => {
    expect(callCounting({ orderIds: [2], statusIds: [1, 2], from })).toEqual({
      kind: 'counters',
      set: CALL_COUNTERS,
      filter: { keys: { order_id: [2], status_id: [1, 2] }, from, to: null },
    });
  });

  it('uses the (order, user, status) counters when userIds are given', () => {
    expect(callCounting({ orderIds: [2], userIds: [7] })).toEqual({
      kind: 'counters',
      set: CALL_USER_COUNTERS,
      filter: { keys: { order_id: [2], user_id: [7], status_id: undefined }, from: null, to: null },
    });
  });

  it('counts exactly without order or lead (never a valid list, but never a wrong total)', () => {
    expect(callCounting({ userIds: [7] })).toEqual({ kind: 'exact' });
  });
});
