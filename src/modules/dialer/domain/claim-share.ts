/** A due lead as the claim orders it. */
export interface QueuedLead {
  leadId: number;
  orderId: number;
  priority: number;
  plannedAt: Date;
}

/** One order's due leads, in its own queue order, and its weight. */
export interface OrderQueue<T extends QueuedLead> {
  orderId: number;
  weight: number;
  leads: readonly T[];
  /** The claim read as many of its leads as it asked for: the order may have more than `leads`. */
  full?: boolean;
}

/** The claim's order: priority (higher first), then planned time, then id. */
export function queueOrder(a: QueuedLead, b: QueuedLead): number {
  return b.priority - a.priority || a.plannedAt.getTime() - b.plannedAt.getTime() || a.leadId - b.leadId;
}

/**
 * Up to `limit` leads shared across orders by weight, lead by lead as smooth weighted round robin does: each order that still has
 * leads gains its weight, the order with the most credit (the lower id on a tie) gives its next lead and pays the weights of all
 * of them. `credits` carries what each order is owed from one claim to the next (ClaimCredits), so claims smaller than the weights
 * add up to still give every order its weight's share over a few claims, never starving a weight-1 order; an order with fewer
 * leads leaves its share to the others. An order the claim read only part of (`full`) keeps gaining its weight once its read
 * leads are used up: what it is owed then, it takes in the next claims (readQuotas reads one more than its share). Each order's leads are taken from the front of its queue; the result is in queue order.
 */
export function shareByWeight<T extends QueuedLead>(queues: readonly OrderQueue<T>[], limit: number, credits: ClaimCredits = new ClaimCredits()): T[] {
  const next = new Map(queues.map((q) => [q.orderId, 0]));
  const picked: T[] = [];
  while (picked.length < limit) {
    const left = (q: OrderQueue<T>) => next.get(q.orderId)! < q.leads.length;
    // An order whose read leads are used up but that may have more still gains its weight (it picks again in the next claim).
    const entitled = queues.filter((q) => left(q) || q.full === true);
    if (!entitled.some(left)) break;
    const total = entitled.reduce((n, q) => n + Math.max(1, q.weight), 0);
    let best: OrderQueue<T> | undefined;
    for (const q of entitled) {
      credits.add(q.orderId, Math.max(1, q.weight));
      if (!left(q)) continue;
      if (!best || credits.of(q.orderId) > credits.of(best.orderId) || (credits.of(q.orderId) === credits.of(best.orderId) && q.orderId < best.orderId))
        best = q;
    }
    credits.add(best!.orderId, -total);
    const k = next.get(best!.orderId)!;
    picked.push(best!.leads[k]);
    next.set(best!.orderId, k + 1);
  }
  return picked.sort(queueOrder);
}

/** What each order is owed between claims (shareByWeight), on one instance: one number per order that claims reach. */
export class ClaimCredits {
  private readonly credit = new Map<number, number>();

  of(orderId: number): number {
    return this.credit.get(orderId) ?? 0;
  }

  add(orderId: number, amount: number): void {
    this.credit.set(orderId, this.of(orderId) + amount);
  }
}

/**
 * How many due leads to read of each order for a claim of `limit`: its weight's share and one more (what shareByWeight can take
 * of it while every order has leads enough), never above `limit`. An order with fewer leads leaves its share to the others; the
 * claim then reads those orders whose queue came back full again, up to `limit` (readAgain).
 */
export function readQuotas(orders: readonly { id: number; weight: number }[], limit: number): Map<number, number> {
  const total = orders.reduce((n, o) => n + Math.max(1, o.weight), 0);
  return new Map(orders.map((o) => [o.id, Math.min(limit, Math.ceil((limit * Math.max(1, o.weight)) / total) + 1)]));
}

/** The orders to read again after a claim's first read gave fewer than `limit` leads: those whose queue came back full. */
export function readAgain(quotas: ReadonlyMap<number, number>, read: readonly { orderId: number }[], limit: number): number[] {
  if (read.length >= limit) return [];
  const counts = new Map<number, number>();
  for (const l of read) counts.set(l.orderId, (counts.get(l.orderId) ?? 0) + 1);
  return [...quotas].filter(([id, quota]) => quota < limit && (counts.get(id) ?? 0) >= quota).map(([id]) => id);
}
