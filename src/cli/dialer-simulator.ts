/**
 * A small simulated dialer for the demo (`npm run demo:dialer`): it claims due leads, confirms them, "calls" the dialable ones with
 * a random outcome (a call status, opt-outs left out) and records each call with its claim token, as a telephony platform would.
 * It speaks HTTP only, through `send`, so the demo runs it against a live server and the tests through supertest.
 */
export type Send = (method: 'GET' | 'POST', path: string, body?: object) => Promise<{ status: number; body: { data?: unknown } }>;

export interface DialerStats {
  rounds: number;
  claimed: number;
  refused: number;
  calls: number;
  /** Calls per outcome (call status code). */
  outcomes: Record<string, number>;
  /** Calls per order id. */
  perOrder: Record<number, number>;
}

interface Claimed {
  claimToken: string;
  leadId: number;
  orderId: number;
}

interface CallStatus {
  id: number;
  code: string;
  isOptOut: boolean;
}

export interface SimulatorOptions {
  dialerId: string;
  /** Leads per claim. */
  batch: number;
  /** Stop after this many claim rounds (or when `until()` says so). */
  rounds: number;
  until?: () => boolean;
  /** Called after every round (the demo draws its progress line). */
  onRound?: (stats: DialerStats) => void;
  /** How long to wait after a claim that found nothing due (0: go on at once). */
  idleMs?: number;
  random?: () => number;
}

async function data<T>(send: Send, method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
  const res = await send(method, path, body);
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as T;
}

export async function simulateDialer(send: Send, opts: SimulatorOptions): Promise<DialerStats> {
  const random = opts.random ?? Math.random;
  const statuses = (await data<CallStatus[]>(send, 'GET', '/v2/call-status/')).filter((s) => !s.isOptOut);
  const lines = new Map<number, number>();
  const stats: DialerStats = { rounds: 0, claimed: 0, refused: 0, calls: 0, outcomes: {}, perOrder: {} };
  const lineOf = async (orderId: number) => {
    if (!lines.has(orderId)) lines.set(orderId, (await data<{ sipEndpointIds: number[] }>(send, 'GET', `/v2/order/detail/${orderId}/`)).sipEndpointIds[0]);
    return lines.get(orderId)!;
  };
  while (stats.rounds < opts.rounds && !opts.until?.()) {
    stats.rounds++;
    const { list } = await data<{ list: Claimed[] }>(send, 'POST', '/v2/dialer/claim/', { dialerId: opts.dialerId, limit: opts.batch, leaseSeconds: 60 });
    stats.claimed += list.length;
    if (list.length > 0) {
      const confirmed = await data<{ list: { claimToken: string; dialable: boolean }[] }>(send, 'POST', '/v2/dialer/confirm/', {
        claimTokens: list.map((l) => l.claimToken),
      });
      const dialable = new Set(confirmed.list.filter((c) => c.dialable).map((c) => c.claimToken));
      stats.refused += list.length - dialable.size;
      for (const lead of list.filter((l) => dialable.has(l.claimToken))) await call(lead);
    } else if (opts.idleMs) {
      await new Promise((resolve) => setTimeout(resolve, opts.idleMs));
    }
    opts.onRound?.(stats);
  }
  return stats;

  async function call(lead: Claimed): Promise<void> {
    const status = statuses[Math.floor(random() * statuses.length)];
    const talk = status.code === 'answered' ? 30 + Math.floor(random() * 120) : 0;
    const wait = 5 + Math.floor(random() * 20);
    await data(send, 'POST', '/v2/call/create/', {
      leadId: lead.leadId,
      orderId: lead.orderId,
      platformCallId: `demo-dialer-${opts.dialerId}-${lead.claimToken}`,
      sipEndpointId: await lineOf(lead.orderId),
      statusId: status.id,
      direction: 'outgoing',
      totalDurationSeconds: wait + talk,
      waitTimeDurationSeconds: wait,
      talkTimeDurationSeconds: talk,
      claimToken: lead.claimToken,
    });
    stats.calls++;
    stats.outcomes[status.code] = (stats.outcomes[status.code] ?? 0) + 1;
    stats.perOrder[lead.orderId] = (stats.perOrder[lead.orderId] ?? 0) + 1;
  }
}

/** The progress line: leads claimed, refused, calls, outcomes, calls per order. */
export function progressLine(s: DialerStats): string {
  const outcomes = Object.entries(s.outcomes)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  const orders = Object.entries(s.perOrder)
    .map(([id, n]) => `#${id}: ${n}`)
    .join(' ');
  return `round ${s.rounds} | claimed ${s.claimed} | refused ${s.refused} | calls ${s.calls} (${outcomes || 'none'}) | per order ${orders || '-'}`;
}
