import { ApiProperty } from '@nestjs/swagger';
import { isoDateTime } from '../../../common/dates';
import { EVENT_TYPES } from '../../events/domain/event';
import { DELIVERY_STATUSES, Webhook, WebhookDelivery } from '../domain/webhook';

const DATE = '2025-11-22T09:30:00+00:00';

/** A webhook as detail and list show it: never its secret. */
export class WebhookView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: null,
    description:
      "extension: the client whose key created it: only that client's keys reach it and it receives only events of that client's orders; null: an unrestricted key's",
  })
  clientId: number | null;
  @ApiProperty({ example: 'https://crm.example.com/hooks/callcenter' }) url: string;
  @ApiProperty({ type: [String], example: ['lead.created'] }) events: string[];
  @ApiProperty({ type: 'integer', isArray: true, example: [], description: '[] = all orders' }) orderIds: number[];
  @ApiProperty({ example: 'CRM sync' }) description: string;
  @ApiProperty() isActive: boolean;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'why the service turned it off (410 Gone, failing for days); null otherwise' })
  disabledReason: string | null;
  @ApiProperty({ type: String, nullable: true, example: null }) disabledAt: string | null;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'after a rotation: until when the previous secret also signs' })
  previousSecretExpiresAt: string | null;
  @ApiProperty({ example: DATE }) createdAt: string;
  @ApiProperty({ example: DATE }) updatedAt: string;
}

export class WebhookCreatedView {
  @ApiProperty({ type: 'integer', example: 1 }) id: number;
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw8ODmxo0qOeg=', description: 'shown here and by rotate-secret only' }) secret: string;
}

export class WebhookSecretView {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw8ODmxo0qOeg=', description: 'the new secret; the previous one also signs for 24 h' })
  secret: string;
}

export class WebhookDeliveryView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ type: 'integer' }) webhookId: number;
  @ApiProperty({ example: '0b6f1f5e-3f0a-4c8e-9a55-1d2f0c7e9b10', description: 'the event id (webhook-id header)' }) eventId: string;
  @ApiProperty({ enum: EVENT_TYPES, example: 'lead.created' }) type: string;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status: string;
  @ApiProperty({ type: 'integer' }) attempts: number;
  @ApiProperty({ type: 'integer', nullable: true, example: 200 }) lastStatusCode: number | null;
  @ApiProperty({ type: String, nullable: true, example: null }) lastError: string | null;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'when a pending delivery is tried next' }) nextAttemptAt: string | null;
  @ApiProperty({ type: String, nullable: true, example: DATE }) deliveredAt: string | null;
}

export function presentWebhook(w: Webhook): WebhookView {
  return {
    id: w.id,
    clientId: w.clientId,
    url: w.url,
    events: w.events,
    orderIds: w.orderIds,
    description: w.description,
    isActive: w.isActive,
    disabledReason: w.disabledReason,
    disabledAt: isoDateTime(w.disabledAt),
    previousSecretExpiresAt: isoDateTime(w.previousSecretExpiresAt),
    createdAt: isoDateTime(w.createdAt),
    updatedAt: isoDateTime(w.updatedAt),
  };
}

export function presentDelivery(d: WebhookDelivery): WebhookDeliveryView {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    nextAttemptAt: d.status === 'pending' ? isoDateTime(d.nextAttemptAt) : null,
    deliveredAt: isoDateTime(d.deliveredAt),
  };
}
