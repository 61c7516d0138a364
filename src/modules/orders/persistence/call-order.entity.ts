import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { AgentGroupEntity } from '../../agent-groups/persistence/agent-group.entity';
import { CallAttemptGroupEntity } from '../../call-attempt-groups/persistence/call-attempt-group.entity';
import { CallScenarioEntity } from '../../call-scenarios/persistence/call-scenario.entity';
import { SipEndpointEntity } from '../../sip-endpoints/persistence/sip-endpoint.entity';
import { UserEntity } from '../../users/persistence/user.entity';
import { ClientEntity } from '../../clients/persistence/client.entity';
import type { OrderRedialRule } from '../../dialing/domain/redial-rule';

/** The unique index of a client's order codes, and the one of the codes of orders of no client. */
export const CALL_ORDER_CLIENT_CODE_INDEX = 'call_order_client_code_key';
export const CALL_ORDER_OWN_CODE_INDEX = 'call_order_own_code_key';

/** `call_order`: an order (campaign) whose leads the call center calls, with its dialing settings. */
@Entity('call_order')
@Check('call_order_max_attempts_per_day_check', 'max_attempts_per_day BETWEEN 1 AND 50')
@Check('call_order_agent_lead_edit_mode_check', `agent_lead_edit_mode IN ('during-call', 'always', 'never')`)
@Check('call_order_call_record_rule_check', `call_record_rule IN ('client_is_connected', 'agent_is_connected')`)
@Check('call_order_code_check', `code ~ '^[a-z0-9_-]+$'`)
@Check('call_order_dial_weight_check', 'dial_weight BETWEEN 1 AND 100')
@Check('call_order_default_utc_offset_check', 'default_utc_offset BETWEEN -12 AND 14')
@Check('call_order_qualified_leads_per_day_limit_check', 'qualified_leads_per_day_limit >= 1')
@Check(
  'call_order_sip_endpoint_usage_scheme_check',
  `sip_endpoint_usage_scheme IN ('random_default', 'random_without_repetition', 'even_loaded', 'even_loaded_daily')`,
)
@Check('call_order_status_check', `status IN ('success', 'secondary', 'info')`)
@Index('call_order_client_id_idx', ['clientId', 'id'], { where: 'client_id IS NOT NULL' })
// Codes are unique per client; orders of no client share one namespace (two partial indexes: NULLs are distinct in a unique key).
@Index(CALL_ORDER_CLIENT_CODE_INDEX, ['clientId', 'code'], { unique: true, where: 'client_id IS NOT NULL' })
@Index(CALL_ORDER_OWN_CODE_INDEX, ['code'], { unique: true, where: 'client_id IS NULL' })
export class CallOrderEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'call_order_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 64 })
  code: string;

  /** The client that ordered the campaign; NULL: the call center's own order. */
  @Column({ type: 'integer', nullable: true })
  @ForeignKey(() => ClientEntity, { name: 'call_order_client_id_fkey' })
  clientId: number | null;

  @Column({ type: 'varchar', length: 255 })
  serviceTitle: string;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  /** Seven days (Monday first), each a list of [from, to] minute ranges. */
  @Column({ type: 'jsonb', default: () => `'[[], [], [], [], [], [], []]'` })
  callSchedule: unknown;

  @Column({ type: 'date', array: true, default: () => `'{}'` })
  callHolidayOverrides: string[];

  @Column({ type: 'boolean', default: false })
  autoDialingEnabled: boolean;

  @Column({ type: 'boolean', default: false })
  predictiveModeEnabled: boolean;

  @Column({ type: 'varchar', length: 8, nullable: true })
  aiDefaultLanguage: string | null;

  @Column({ type: 'boolean', default: false })
  amdDetectionEnabled: boolean;

  @Column({ type: 'varchar', length: 32, default: 'client_is_connected' })
  callRecordRule: string;

  @Column({ type: 'varchar', length: 32, default: 'random_default' })
  sipEndpointUsageScheme: string;

  @Column({ type: 'boolean', default: true })
  showLeadContactsToAgent: boolean;

  @Column({ type: 'integer', nullable: true })
  @ForeignKey(() => CallAttemptGroupEntity, { name: 'call_order_call_attempt_group_id_fkey' })
  callAttemptGroupId: number | null;

  @Column({ type: 'integer', nullable: true })
  qualifiedLeadsPerDayLimit: number | null;

  /** Leads without consent are not dialled. */
  @Column({ type: 'boolean', default: false })
  consentRequired: boolean;

  /** Calls a lead gets per local day; NULL: no cap. */
  @Column({ type: 'integer', nullable: true })
  maxAttemptsPerDay: number | null;

  /** The order's redial rules per call status (OrderRedialRule), over the statuses' own. */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  redialRules: OrderRedialRule[];
  /** The order's share of a dialer claim across orders, relative to the other orders' weights. */
  @Column({ type: 'smallint', default: 1 })
  dialWeight: number;

  @Column({ type: 'integer', nullable: true })
  @ForeignKey(() => CallScenarioEntity, { name: 'call_order_call_scenario_id_fkey' })
  callScenarioId: number | null;

  @Column({ type: 'boolean', default: false })
  leadTransformEnabled: boolean;

  @Column({ type: 'boolean', default: false })
  speechRecognitionEnabled: boolean;

  @Column({ type: 'boolean', default: false })
  ignoreLeadTimezone: boolean;

  @Column({ type: 'smallint', default: 0 })
  defaultUtcOffset: number;

  /** IANA zone; NULL = `default_utc_offset`. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  defaultTimeZone: string | null;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  customValues: Record<string, unknown>;

  @Column({ type: 'boolean', default: false })
  agentLeadCreationIsAllowed: boolean;

  @Column({ type: 'varchar', length: 16, default: 'during-call' })
  agentLeadEditMode: string;

  @Column({ type: 'boolean', default: false })
  autoProcessCall: boolean;

  @Column({ type: 'integer', default: 0 })
  createdBy: number;

  @Column({ type: 'integer', default: 0 })
  updatedBy: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}

/** `order_agent`: agents assigned to an order directly. */
@Entity('order_agent')
export class OrderAgentEntity {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'order_agent_pkey' })
  @ForeignKey(() => CallOrderEntity, { name: 'order_agent_order_id_fkey', onDelete: 'CASCADE' })
  orderId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'order_agent_pkey' })
  @ForeignKey(() => UserEntity, { name: 'order_agent_user_id_fkey' })
  userId: number;
}

/** `order_agent_group`: agent groups assigned to an order. */
@Entity('order_agent_group')
export class OrderAgentGroupEntity {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'order_agent_group_pkey' })
  @ForeignKey(() => CallOrderEntity, { name: 'order_agent_group_order_id_fkey', onDelete: 'CASCADE' })
  orderId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'order_agent_group_pkey' })
  @ForeignKey(() => AgentGroupEntity, { name: 'order_agent_group_group_id_fkey' })
  groupId: number;
}

/** `order_sip_endpoint`: an order's outgoing lines, in the order they are used. */
@Entity('order_sip_endpoint')
export class OrderSipEndpointEntity {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'order_sip_endpoint_pkey' })
  @ForeignKey(() => CallOrderEntity, { name: 'order_sip_endpoint_order_id_fkey', onDelete: 'CASCADE' })
  orderId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'order_sip_endpoint_pkey' })
  @ForeignKey(() => SipEndpointEntity, { name: 'order_sip_endpoint_sip_endpoint_id_fkey' })
  sipEndpointId: number;

  @Column({ type: 'smallint' })
  position: number;
}

/** `order_transfer_number`: numbers an agent may transfer an order's call to, in order. */
@Entity('order_transfer_number')
export class OrderTransferNumberEntity {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'order_transfer_number_pkey' })
  @ForeignKey(() => CallOrderEntity, { name: 'order_transfer_number_order_id_fkey', onDelete: 'CASCADE' })
  orderId: number;

  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'order_transfer_number_pkey' })
  position: number;

  @Column({ type: 'varchar', length: 32 })
  number: string;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  names: Record<string, string>;
}
