import type { EntityManager } from 'typeorm';
import type { FeedEvent } from '../domain/feed-event';

/**
 * What webhooks need of the events module, as ports (the module binds them to EventFeed and
 * EventOutbox): the feed in commit order, never skipping, and the outbox for `webhook.test`.
 */
export abstract class WebhookEventFeed {
  abstract read(after: number, limit: number, filter: { types?: string[]; orderIds?: number[] }): Promise<{ list: FeedEvent[]; next: number }>;
  /** The position of the latest event numbered so far (0 when none). */
  abstract head(): Promise<number>;
}

export abstract class WebhookEventOutbox {
  abstract append(m: EntityManager, e: { type: string; orderId: number | null; data: object }): Promise<void>;
}
