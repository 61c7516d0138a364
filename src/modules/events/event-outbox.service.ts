import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { EventType } from './domain/event';
import { EventsRepository } from './persistence/events.repository';

/**
 * Writes an event in the caller's transaction (the transactional outbox): it is committed with
 * the change it describes or not at all. Lead, call and failed-async-create events need no call:
 * triggers on their tables write them (migration 1763900000000-events).
 *
 * `data` is stored as given and shown as given, except for order events, whose `data.order` is
 * the OrdersRepository record (presented as the Order detail object when read).
 */
@Injectable()
export class EventOutbox {
  constructor(private readonly repo: EventsRepository) {}

  append(m: EntityManager, e: { type: EventType; orderId: number | null; data: object }): Promise<void> {
    return this.repo.append(m, { type: e.type, orderId: e.orderId, payload: e.data });
  }
}
