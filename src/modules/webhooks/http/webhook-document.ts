import type { OperationObject, ParameterObject, PathItemObject } from '@nestjs/swagger';
import { EVENT_TYPES, type EventType } from '../../events/domain/event';
import { webhookEventRef } from '../../events/http/event-schemas';

/** The Standard Webhooks headers of every delivery. */
const DELIVERY_HEADERS: ParameterObject[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id, the same on every retry: deduplicate by it',
    schema: { type: 'string', format: 'uuid' },
    example: '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt; refuse one too far from now (5 minutes)',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1772600767',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}"> keyed with the base64-decoded part of the secret after whsec_; ' +
      'two signatures, space-separated, while a rotated secret is still valid',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

const SUMMARY: Record<EventType, string> = {
  'lead.created': 'A lead was created (v2 sync, async, batch, upsert or v1)',
  'lead.updated': 'Fields of a lead changed',
  'lead.create_failed': 'An accepted create-async job failed',
  'call.created': 'A call was recorded',
  'order.created': 'An order was created',
  'order.updated': 'An order changed',
  'dnc.added': 'Numbers were put on a do-not-call list (a request or an opt-out on a call)',
  'dnc.removed': 'Numbers left a do-not-call list (removed, or their entries expired)',
  'webhook.test': 'The test event POST /v2/webhook/test/{webhookId} queues',
};

const pascal = (type: string) => type.replace(/(^|[._])([a-z])/g, (_m, _sep, c: string) => c.toUpperCase());

function delivery(type: EventType): OperationObject {
  return {
    operationId: `on${pascal(type)}`,
    summary: SUMMARY[type],
    description:
      `POST to the webhook's url for each ${type} event it subscribes to. A 2xx within WEBHOOK_TIMEOUT_MS is delivered; anything else ` +
      'is retried on WEBHOOK_RETRY_SCHEDULE; 410 disables the webhook. At least once and unordered.',
    tags: ['webhooks'],
    security: [],
    parameters: DELIVERY_HEADERS,
    requestBody: { required: true, content: { 'application/json': { schema: webhookEventRef(type) } } },
    responses: {
      '200': { description: 'Received (any 2xx)' },
      '410': { description: 'Gone: the service disables the webhook' },
    },
  };
}

/** The `webhooks` section: each event type a webhook receives, with its body and headers. */
export const webhooksSection = (): Record<string, PathItemObject> => Object.fromEntries(EVENT_TYPES.map((type) => [type, { post: delivery(type) }]));
