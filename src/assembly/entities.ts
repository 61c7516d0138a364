import { AgentGroupEntity, AgentGroupMemberEntity } from '../modules/agent-groups/persistence/agent-group.entity';
import { ApiKeyEntity } from '../modules/auth/persistence/api-key.entity';
import { ClientEntity } from '../modules/clients/persistence/client.entity';
import { DialerClaimEntity } from '../modules/dialer/persistence/dialer-claim.entity';
import { DncEntryEntity } from '../modules/dnc/persistence/dnc-entry.entity';
import { CallAttemptGroupEntity } from '../modules/call-attempt-groups/persistence/call-attempt-group.entity';
import { CallScenarioEntity } from '../modules/call-scenarios/persistence/call-scenario.entity';
import { CALL_COUNTERS, CALL_USER_COUNTERS } from '../modules/calls/persistence/call-counters';
import { CallStatusEntity } from '../modules/call-statuses/persistence/call-status.entity';
import { CallEntity } from '../modules/calls/persistence/call.entity';
import { CustomFieldEntity, CustomFieldOptionEntity } from '../modules/custom-fields/persistence/custom-field.entity';
import { LeadAsyncJobEntity } from '../modules/leads/persistence/lead-async-job.entity';
import { LEAD_COUNTERS } from '../modules/leads/persistence/lead-counters';
import { LEAD_PLANNING_COUNTERS } from '../modules/leads/persistence/lead-planning-counters';
import { LeadStatusEntity } from '../modules/leads/persistence/lead-status.entity';
import { LeadEntity } from '../modules/leads/persistence/lead.entity';
import { NotificationDeliveryEntity, NotificationEntity } from '../modules/notifications/persistence/notification.entity';
import {
  CallOrderEntity,
  OrderAgentEntity,
  OrderAgentGroupEntity,
  OrderSipEndpointEntity,
  OrderTransferNumberEntity,
} from '../modules/orders/persistence/call-order.entity';
import { QueueConsumerEntity } from '../modules/queue/persistence/queue-consumer.entity';
import { RateLimitCounterEntity } from '../modules/rate-limit/persistence/rate-limit-counter.entity';
import { SipEndpointEntity } from '../modules/sip-endpoints/persistence/sip-endpoint.entity';
import { UserEntity } from '../modules/users/persistence/user.entity';
import { IdempotencyRecordEntity } from '../common/idempotency/idempotency-record.entity';
import { DemoSeedStepEntity } from '../database/seed/demo-seed-step.entity';
import { counterEntities } from '../database/counters/counter-entities';
import { EventEntity, EventRetentionEntity } from '../modules/events/persistence/event.entity';
import { WEBHOOK_ENTITIES } from '../modules/webhooks/persistence/webhook.entity';

/**
 * Every table's entity. Listed explicitly (like MIGRATIONS) so the app, the migration CLI and the
 * schema-drift test load the same set: a new table adds its entity here, and
 * `npm run migration:generate` then writes its migration.
 */
export const ENTITIES = [
  ClientEntity,
  UserEntity,
  AgentGroupEntity,
  AgentGroupMemberEntity,
  SipEndpointEntity,
  CallScenarioEntity,
  CallAttemptGroupEntity,
  CustomFieldEntity,
  CustomFieldOptionEntity,
  ApiKeyEntity,
  IdempotencyRecordEntity,
  CallOrderEntity,
  OrderAgentEntity,
  OrderAgentGroupEntity,
  OrderSipEndpointEntity,
  OrderTransferNumberEntity,
  LeadStatusEntity,
  LeadEntity,
  LeadAsyncJobEntity,
  DialerClaimEntity,
  ...counterEntities(LEAD_COUNTERS),
  ...counterEntities(LEAD_PLANNING_COUNTERS),
  CallStatusEntity,
  CallEntity,
  ...counterEntities(CALL_COUNTERS),
  ...counterEntities(CALL_USER_COUNTERS),
  NotificationEntity,
  NotificationDeliveryEntity,
  RateLimitCounterEntity,
  QueueConsumerEntity,
  DemoSeedStepEntity,
  EventEntity,
  EventRetentionEntity,
  ...WEBHOOK_ENTITIES,
  DncEntryEntity,
];
