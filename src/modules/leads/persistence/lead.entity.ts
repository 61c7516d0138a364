import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { CallOrderEntity } from '../../orders/persistence/call-order.entity';
import type { Consent } from '../domain/consent';
import type { HoldReason } from '../../dialing/domain/dialing-decision';
import type { DialStop } from '../../dialing/domain/redial-rule';
import { LeadStatusEntity } from './lead-status.entity';

/**
 * `lead`: a contact to call for an order. Written on the hot path by tuned SQL (the `lead_create`
 * function, set-based updates); triggers in the migrations keep `created_at` to the second and the
 * lead counters current. Neither is something TypeORM models: they stay in the migrations.
 */
@Entity('lead')
@Check('lead_check', 'previous_lead_id IS DISTINCT FROM id AND next_lead_id IS DISTINCT FROM id')
@Check('lead_lead_type_check', `lead_type IN ('straight', 'selection')`)
@Check('lead_dial_stop_check', `dial_stop IN ('final_outcome', 'outcome_attempts_exhausted')`)
@Check('lead_messenger_id_check', 'messenger_id > 0')
@Check('lead_dialing_hold_check', `dialing_hold <@ ARRAY['dnc', 'no_consent', 'daily_attempt_cap']::varchar[] AND cardinality(dialing_hold) > 0`)
@Check('lead_phone_check', `phone ~ '^\\+[1-9][0-9]{6,14}$'`)
@Check('lead_social_a_id_check', 'social_a_id > 0')
@Check('lead_utc_offset_check', 'utc_offset BETWEEN -12 AND 14')
// The primary key (id, order_id) lets calls and the previous/next links reference a lead of the same order; it includes
// order_id as a table distributed by it must (docs/scaling.md), and id leads it for lookups by id alone.
@ForeignKey(() => LeadEntity, ['orderId', 'previousLeadId'], ['orderId', 'id'], { name: 'lead_previous_fk' })
@ForeignKey(() => LeadEntity, ['orderId', 'nextLeadId'], ['orderId', 'id'], { name: 'lead_next_fk' })
@Index('lead_created_id_idx', ['createdAt', 'id'])
@Index('lead_external_a_id_idx', ['externalIdCrmA', 'id'], { where: 'external_id_crm_a IS NOT NULL' })
@Index('lead_external_b_id_idx', ['externalIdCrmB', 'id'], { where: 'external_id_crm_b IS NOT NULL' })
@Index('lead_external_c_id_idx', ['externalIdCrmC', 'id'], { where: 'external_id_crm_c IS NOT NULL' })
@Index('lead_external_d_id_idx', ['externalIdCrmD', 'id'], { where: 'external_id_crm_d IS NOT NULL' })
@Index('lead_order_created_idx', ['orderId', 'createdAt'])
@Index('lead_order_job_idx', ['orderId', 'jobId'], { unique: true, where: 'job_id IS NOT NULL' })
@Index('lead_order_phone_id_idx', ['orderId', 'phone', 'id'])
// Due leads and the next hour's calls of an order, by a range of one index (migration 1763900300000).
// The dialer's queue of an order (priority descending, then planned time and id): written in the migration.
@Index('lead_order_dial_queue_idx', { synchronize: false })
@Index('lead_order_planning_idx', ['orderId', 'planningCallAt'], { where: 'planning_call_at IS NOT NULL' })
@Index('lead_order_qualified_idx', ['orderId', 'qualifiedAt'], { where: 'qualified_at IS NOT NULL' })
@Index('lead_order_status_id_idx', ['orderId', 'statusId', 'id'])
@Index('lead_phone_id_idx', ['phone', 'id'])
@Index('lead_status_id_idx', ['statusId', 'id'])
export class LeadEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'lead_pkey' })
  id: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'lead_pkey' })
  @ForeignKey(() => CallOrderEntity, { name: 'lead_order_id_fkey' })
  orderId: number;

  @Column({ type: 'varchar', length: 255, nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 16 })
  phone: string;

  @Column({ type: 'text', nullable: true })
  sourceComment: string | null;

  @Column({ type: 'varchar', length: 45, nullable: true })
  ip: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalIdCrmA: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalIdCrmB: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalIdCrmC: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalIdCrmD: string | null;

  @Column({ type: 'integer' })
  @ForeignKey(() => LeadStatusEntity, { name: 'lead_status_id_fkey' })
  statusId: number;

  @Column({ type: 'varchar', length: 16 })
  leadType: string;

  @Column({ type: 'varchar', length: 32, default: 'API' })
  createMethod: string;

  @Column({ type: 'varchar', length: 32, default: 'organic' })
  source: string;

  @Column({ type: 'boolean', default: false })
  isSecondary: boolean;

  @Column({ type: 'integer', nullable: true })
  previousLeadId: number | null;

  @Column({ type: 'integer', nullable: true })
  nextLeadId: number | null;

  @Column({ type: 'timestamptz', nullable: true })
  planningCallAt: Date | null;

  @Column({ type: 'integer', default: 0 })
  priority: number;

  @Column({ type: 'smallint' })
  utcOffset: number;

  /** IANA zone; NULL = the fixed `utc_offset`. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  timeZone: string | null;

  @Column({ type: 'bigint', nullable: true })
  socialAId: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  socialBLogin: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  messengerUserName: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  messengerPhone: string | null;

  @Column({ type: 'bigint', nullable: true })
  messengerId: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  adCampaignId: string | null;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  customValues: Record<string, unknown>;

  @Column({ type: 'integer', default: 0 })
  attemptCount: number;

  @Column({ type: 'uuid', nullable: true })
  jobId: string | null;

  /** Made by an async job (create-async, an async batch): its lead.created event names the job; a sync create's token in jobId does not. */
  @Column({ type: 'boolean', default: false })
  createdByJob: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  qualifiedAt: Date | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  selectionType: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  city: string | null;

  @Column({ type: 'jsonb', nullable: true })
  additionalParams: Record<string, unknown> | null;

  /** Consent to be called (domain/consent.ts Consent); NULL: none given. */
  @Column({ type: 'jsonb', nullable: true })
  consent: Consent | null;

  /** Set when the lead's calls of a local day reached its order's maxAttemptsPerDay: the start of its next local day. */
  @Column({ type: 'timestamptz', nullable: true })
  dailyCapUntil: Date | null;

  /** The dialing decision's input: the earliest moment the lead is wanted (created, a redial due, a `call_timestamp`); NULL: dialling stopped. */
  @Column({ type: 'timestamptz', nullable: true })
  dialAfter: Date | null;

  /** The dialing decision's hold: every reason the lead is held (dialing/domain HOLD_REASONS); NULL: not held. */
  @Column({ type: 'varchar', length: 24, array: true, nullable: true })
  dialingHold: HoldReason[] | null;

  /** Since when the lead has been held (NULL when it is not). */
  @Column({ type: 'timestamptz', nullable: true })
  dialingHoldSince: Date | null;

  /** The call outcome rule that stopped the dialling (dialing/domain DIAL_STOPS); NULL: none did. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  dialStop: DialStop | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
