import { Module } from '@nestjs/common';
import { EventFeed } from './event-feed.service';
import { EventOutbox } from './event-outbox.service';
import { EventsDemoSeed } from './events.seed';
import { EventsV2Controller } from './http/events.v2.controller';
import { EventsRepository } from './persistence/events.repository';

/**
 * Events for integrators: the transactional outbox (EventOutbox; triggers for leads, calls and
 * failed async creates) and the ordered feed (EventFeed, GET /v2/event/). Webhook delivery reads
 * the same feed.
 */
@Module({
  controllers: [EventsV2Controller],
  providers: [EventsRepository, EventOutbox, EventFeed, EventsDemoSeed],
  exports: [EventOutbox, EventFeed],
})
export class EventsModule {}
