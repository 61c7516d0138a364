import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { EventType } from './domain/event';
import { EventsRepository } from './persistence/events.repository';

/**
 * Writes an event in the caller's transaction (transactional outbox): committed with the change it describes or not at all.
 * Lead, call and failed-async-create events come from triggers on their tables instead. `data` is stored and shown as given,
 * except an order event's `data.order`, the OrdersRepository record, shown as the Order detail object.
 */
@Injectable()
export class EventOutbox {
  constructor(private readonly repo: EventsRepository) {}

  /** `clientId`: the client an event without an order belongs to (a change of the client's do-not-call list). */
  append(m: EntityManager, e: { type: EventType; orderId: number | null; clientId?: number | null; data: object }): Promise<void> {
    return this.repo.append(m, { type: e.type, orderId: e.orderId, clientId: e.clientId ?? null, payload: e.data });
  }
}
