import { Module } from '@nestjs/common';
import { EVENT_TYPES } from '../events/domain/event';
import { EventFeed } from '../events/event-feed.service';
import { EventOutbox } from '../events/event-outbox.service';
import { EventsModule } from '../events/events.module';
import { ObservabilityModule } from '../observability/observability.module';
import { OrdersModule } from '../orders/orders.module';
import { WebhookEventFeed, WebhookEventOutbox } from './persistence/event-source';
import { WebhooksV2Controller } from './http/webhooks.v2.controller';
import { WebhookDeliveriesRepository } from './persistence/webhook-deliveries.repository';
import { WebhooksRepository } from './persistence/webhooks.repository';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { WebhookDispatcher } from './webhook-dispatcher.worker';
import { WebhookMetrics } from './http/webhook-metrics';
import { WebhooksDemoSeed } from './webhooks.seed';
import { WEBHOOK_EVENT_TYPES, WebhooksService } from './webhooks.service';

/**
 * Webhooks: subscriptions (scope api), the dispatcher that turns the event feed into deliveries,
 * and the worker that sends them signed. The events module is reached through two ports.
 */
@Module({
  imports: [EventsModule, OrdersModule, ObservabilityModule],
  controllers: [WebhooksV2Controller],
  providers: [
    WebhooksRepository,
    WebhookDeliveriesRepository,
    WebhooksService,
    WebhookDeliveryWorker,
    WebhookDispatcher,
    WebhooksDemoSeed,
    WebhookMetrics,
    { provide: WebhookEventFeed, useExisting: EventFeed },
    { provide: WebhookEventOutbox, useExisting: EventOutbox },
    { provide: WEBHOOK_EVENT_TYPES, useValue: EVENT_TYPES },
  ],
})
export class WebhooksModule {}
