/** A call as stored and presented (GET /v2/call/, call events). */
/** Who ended a call, when known. */
export const FINISH_INITIATORS = ['agent', 'client', 'system'] as const;
export const CALL_DIRECTIONS = ['incoming', 'outgoing'] as const;

export interface CallRow {
  id: number;
  orderId: number;
  leadId: number;
  userId: number | null;
  sipEndpointId: number;
  statusId: number;
  finishInitiator: string | null;
  direction: string;
  totalDurationSeconds: number;
  waitTimeDurationSeconds: number;
  talkTimeDurationSeconds: number;
  isPredictive: boolean;
  clientPhone: string;
  hasRecords: boolean;
  createdAt: Date;
}

/** The user id of a call no agent processed, as filters take it and calls show it (stored as NULL). */
export const NO_AGENT = 0;

/** What GET /v2/call/ filters on. */
export interface CallFilter {
  leadIds?: number[];
  /** A list needs leadIds or orderIds (the service checks). */
  orderIds?: number[];
  /** Agents' ids; NO_AGENT among them adds the calls no agent processed. */
  userIds?: number[];
  statusIds?: number[];
  /** Inclusive bounds on created_at. */
  from?: Date;
  to?: Date;
}

/**
 * The filter confined to the orders a client key reaches (`reached`): orderIds keeps only those
 * orders, a list by leads gets them as a condition. Null when nothing can match (no order left).
 */
export function confineToOrders(f: CallFilter, reached: readonly number[]): CallFilter | null {
  const reach = new Set(reached);
  const orderIds = f.orderIds?.length ? f.orderIds.filter((id) => reach.has(id)) : [...reached];
  return orderIds.length ? { ...f, orderIds } : null;
}
