import fc from 'fast-check';
import { ClaimCredits, type QueuedLead, queueOrder, readAgain, readQuotas, shareByWeight } from './claim-share';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 5, 10, minute));
const leads = (orderId: number, n: number, from = 0): QueuedLead[] =>
  Array.from({ length: n }, (_, i) => ({ leadId: orderId * 1000 + from + i, orderId, priority: 0, plannedAt: at(i) }));
const countBy = (list: QueuedLead[]) => list.reduce<Record<number, number>>((m, l) => ({ ...m, [l.orderId]: (m[l.orderId] ?? 0) + 1 }), {});

describe('shareByWeight', () => {
  it('shares a claim across orders in proportion to their weights', () => {
    const picked = shareByWeight(
      [
        { orderId: 1, weight: 3, leads: leads(1, 100) },
        { orderId: 2, weight: 1, leads: leads(2, 100) },
      ],
      40,
    );
    expect(countBy(picked)).toEqual({ 1: 30, 2: 10 });
  });

  it('gives the share an order cannot use to the others', () => {
    const picked = shareByWeight(
      [
        { orderId: 1, weight: 1, leads: leads(1, 3) },
        { orderId: 2, weight: 1, leads: leads(2, 100) },
      ],
      20,
    );
    expect(countBy(picked)).toEqual({ 1: 3, 2: 17 });
  });

  /** 1,000 claims of 50 over 50 orders of weights 1..10, each order read its quota less `lost(order, claim)` leads: the worst share off its weight's. */
  const worstShare = (lost: (orderId: number, claim: number) => number, full: boolean) => {
    const orders = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, weight: (i % 10) + 1 }));
    const quotas = readQuotas(orders, 50);
    const credits = new ClaimCredits();
    const counts = new Map<number, number>();
    let handed = 0;
    for (let claim = 0; claim < 1000; claim++) {
      const queues = orders.map((o) => ({ orderId: o.id, weight: o.weight, leads: leads(o.id, quotas.get(o.id)! - lost(o.id, claim), claim * 10), full }));
      for (const l of shareByWeight(queues, 50, credits)) counts.set(l.orderId, (counts.get(l.orderId) ?? 0) + 1);
      handed += 50;
    }
    const weights = orders.reduce((n, o) => n + o.weight, 0);
    return Math.max(...orders.map((o) => Math.abs((counts.get(o.id) ?? 0) / handed / (o.weight / weights) - 1)));
  };

  it('gives every order its weight within 2% over claims that read each its quota (50 orders of weights 1..10, claims of 50)', () => {
    expect(worstShare(() => 0, true)).toBeLessThan(0.02);
  });

  it('an order whose read leads parallel claims took keeps gaining its weight, and catches up in the next claims', () => {
    // In every third claim, a parallel claim took one of the read leads of the orders past the tenth.
    const lost = (orderId: number, claim: number) => (orderId > 10 && claim % 3 === 0 ? 1 : 0);
    expect(worstShare(lost, true)).toBeLessThan(0.02);
    // Without it, those orders would fall behind their weight.
    expect(worstShare(lost, false)).toBeGreaterThan(0.05);
  });

  it("takes each order's leads from the front of its queue and answers in queue order", () => {
    const queue = [
      { leadId: 5, orderId: 1, priority: 9, plannedAt: at(30) },
      { leadId: 3, orderId: 1, priority: 0, plannedAt: at(1) },
      { leadId: 4, orderId: 1, priority: 0, plannedAt: at(1) },
      { leadId: 1, orderId: 1, priority: 0, plannedAt: at(2) },
    ];
    expect(shareByWeight([{ orderId: 1, weight: 1, leads: queue }], 3).map((l) => l.leadId)).toEqual([5, 3, 4]);
  });

  it("starves no order when claims are smaller than the weights add up to: over claims each gets its weight's share", () => {
    // Claims smaller than the weights add up to (50 orders of weights 1..10 and claims of 50, say) cannot give a weight-1 order a
    // lead each; the credits carried between claims give every order its share to within one lead.
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 2, maxLength: 60 }), fc.integer({ min: 1, max: 120 }), (weights, limit) => {
        const total = weights.reduce((a, b) => a + b, 0);
        const credits = new ClaimCredits();
        const got = new Map<number, number>();
        const claims = 40;
        for (let claim = 0; claim < claims; claim++) {
          const picked = shareByWeight(
            weights.map((weight, k) => ({ orderId: k + 1, weight, leads: leads(k + 1, limit) })),
            limit,
            credits,
          );
          expect(picked).toHaveLength(limit);
          for (const l of picked) got.set(l.orderId, (got.get(l.orderId) ?? 0) + 1);
        }
        weights.forEach((weight, k) => expect(Math.abs((got.get(k + 1) ?? 0) - (claims * limit * weight) / total)).toBeLessThanOrEqual(1));
      }),
      { numRuns: 50 },
    );
  });

  it("reads each order's share and one more, and again those whose queue came back full when the claim is short", () => {
    const quotas = readQuotas(
      [
        { id: 1, weight: 3 },
        { id: 2, weight: 1 },
      ],
      40,
    );
    expect([...quotas]).toEqual([
      [1, 31],
      [2, 11],
    ]);
    expect(readQuotas([{ id: 1, weight: 1 }], 40).get(1)).toBe(40);
    const read = [...leads(1, 31), ...leads(2, 2)];
    expect(readAgain(quotas, read, 40)).toEqual([1]);
    expect(readAgain(quotas, [...leads(1, 31), ...leads(2, 11)], 40)).toEqual([]);
  });

  it('answers nothing without leads', () => {
    expect(shareByWeight([], 10)).toEqual([]);
    expect(shareByWeight([{ orderId: 1, weight: 1, leads: [] }], 10)).toEqual([]);
  });
});

describe('queueOrder', () => {
  it('orders by priority (higher first), then planned time, then id', () => {
    const list = [
      { leadId: 2, orderId: 1, priority: 0, plannedAt: at(1) },
      { leadId: 1, orderId: 1, priority: 0, plannedAt: at(1) },
      { leadId: 3, orderId: 1, priority: 0, plannedAt: at(0) },
      { leadId: 4, orderId: 1, priority: 5, plannedAt: at(9) },
    ];
    expect([...list].sort(queueOrder).map((l) => l.leadId)).toEqual([4, 3, 1, 2]);
  });
});
