import type { Type } from '@nestjs/common';
import { getSchemaPath, type ReferenceObject, type SchemaObject } from '@nestjs/swagger';
import { FieldErrorView, shared } from '../../../common/openapi/envelope.decorators';
import { CallView } from '../../calls/http/call.presenter';
import { LeadV2View } from '../../leads/http/lead.presenter';
import { OrderView } from '../../orders/http/order.presenter';
import { EVENT_TYPES, type EventType } from '../domain/event';

const ref = (model: Type<unknown>): ReferenceObject => ({ $ref: getSchemaPath(model) });
const CHANGED: SchemaObject = { type: 'array', items: { type: 'string' }, description: 'the v2 field names whose value changed', example: ['statusId'] };
const JOB_ID: SchemaObject = { type: 'string', format: 'uuid', description: 'the create-async job', example: '0d9e8f7a-6b5c-4d3e-8f1a-2b3c4d5e6f70' };
const object = (properties: Record<string, SchemaObject | ReferenceObject>, required = Object.keys(properties)): SchemaObject => ({
  type: 'object',
  required,
  properties,
});

/** `data` of dnc.added and dnc.removed: one write of one do-not-call list. */
const dncChange = (what: string): SchemaObject =>
  object({
    scope: { type: 'string', enum: ['global', 'client', 'order'], description: "the list: the global one, a client's, an order's", example: 'client' },
    orderId: { type: ['integer', 'null'], description: "the order of an order's list", example: null },
    clientId: { type: ['integer', 'null'], description: "the client of a client's list", example: 1 },
    phones: { type: 'array', items: { type: 'string' }, description: `the numbers ${what} (E.164), in order`, example: ['+79161234567'] },
    expiresAt: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'dnc.added: the expiry the write asked for (null: never; an entry keeps a later one); dnc.removed: the expiry reached, or null',
      example: null,
    },
    reason: {
      type: ['string', 'null'],
      description: 'the reason given; "expired" when entries reached their expiry',
      example: 'asked not to be called',
    },
    source: {
      type: 'string',
      enum: ['api', 'call'],
      description: "api: a request to /v2/dnc or an expiry; call: an opt-out on a call (dnc.removed: an opt-out's entry is among those removed)",
      example: 'call',
    },
    callId: { type: ['integer', 'null'], description: 'the call whose opt-out it is (source call), else null', example: 42 },
  });

/** `data` of each event type, as the feed and the webhook deliveries carry it. */
const DATA: Record<EventType, { name: string; schema: () => SchemaObject }> = {
  'lead.created': { name: 'LeadCreatedData', schema: () => object({ lead: ref(LeadV2View), jobId: JOB_ID }, ['lead']) },
  'lead.updated': { name: 'LeadUpdatedData', schema: () => object({ lead: ref(LeadV2View), changed: CHANGED }) },
  'lead.create_failed': {
    name: 'LeadCreateFailedData',
    schema: () => object({ jobId: JOB_ID, orderId: { type: 'integer', example: 1 }, errors: { type: 'array', items: ref(FieldErrorView) } }),
  },
  'call.created': {
    name: 'CallCreatedData',
    schema: () =>
      object({
        call: ref(CallView),
        optOut: { type: 'boolean', description: 'the call recorded an opt-out: the number called went on a do-not-call list', example: false },
      }),
  },
  'order.created': { name: 'OrderCreatedData', schema: () => object({ order: ref(OrderView) }) },
  'order.updated': { name: 'OrderUpdatedData', schema: () => object({ order: ref(OrderView), changed: CHANGED }) },
  'dnc.added': { name: 'DncAddedData', schema: () => dncChange('put on the list or updated there') },
  'dnc.removed': { name: 'DncRemovedData', schema: () => dncChange('taken off the list (removed, or expired)') },
  'webhook.test': { name: 'WebhookTestData', schema: () => object({ webhookId: { type: 'integer', example: 1 } }) },
};

/** `lead.create_failed` → `LeadCreateFailed`. */
const pascal = (type: string) => type.replace(/(^|[._])([a-z])/g, (_m, _sep, c: string) => c.toUpperCase());

/** The event body a webhook receives: {id, type, timestamp, data}. */
function eventSchema(type: EventType, withPosition: boolean): SchemaObject {
  const position: Record<string, SchemaObject> = withPosition
    ? { position: { type: 'integer', minimum: 1, description: 'place in the feed (commit order); pass the last one seen as `after`', example: 1 } }
    : {};
  return object({
    ...position,
    id: {
      type: 'string',
      format: 'uuid',
      description: 'unique and stable: the same in the feed and in every delivery (webhook-id)',
      example: '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    },
    type: { type: 'string', const: type, example: type } as SchemaObject,
    timestamp: { type: 'string', format: 'date-time', description: 'when the change was made', example: '2026-03-04T05:06:07+00:00' },
    data: shared(DATA[type].name, DATA[type].schema),
  });
}

/** The webhook body of `type` (component `<Type>Event`). */
export const webhookEventRef = (type: EventType): ReferenceObject => shared(`${pascal(type)}Event`, () => eventSchema(type, false));

/** A feed item of any type: one schema per type, told apart by `type`. */
export function feedEventSchema(): SchemaObject {
  const refs = EVENT_TYPES.map((type) => [type, shared(`${pascal(type)}FeedEvent`, () => eventSchema(type, true))] as const);
  return {
    oneOf: refs.map(([, r]) => r),
    discriminator: { propertyName: 'type', mapping: Object.fromEntries(refs.map(([type, r]) => [type, r.$ref])) },
  };
}
