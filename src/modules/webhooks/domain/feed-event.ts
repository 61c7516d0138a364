/** An event as the events module's feed presents it to webhooks, in commit order. */
export interface FeedEvent {
  position: number;
  id: string;
  type: string;
  timestamp: string;
  data: object;
  orderId: number | null;
}

/** The body of a delivery: the event as the feed shows it, without its position and order id. */
export function deliveryBody(e: FeedEvent): string {
  return JSON.stringify({ id: e.id, type: e.type, timestamp: e.timestamp, data: e.data });
}
