/** An event as the events module's feed presents it to webhooks, in commit order. */
export interface FeedEvent {
  position: number;
  id: string;
  type: string;
  timestamp: string;
  data: object;
  orderId: number | null;
  /** The client of an event without an order that belongs to one (its do-not-call list's changes). */
  clientId: number | null;
}

/** The body of a delivery: the event as the feed shows it, without its position, order id and client id. */
export function deliveryBody(e: FeedEvent): string {
  return JSON.stringify({ id: e.id, type: e.type, timestamp: e.timestamp, data: e.data });
}
