import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { LeadEntity } from '../../leads/persistence/lead.entity';
import { CallOrderEntity } from '../../orders/persistence/call-order.entity';
import { SipEndpointEntity } from '../../sip-endpoints/persistence/sip-endpoint.entity';
import { UserEntity } from '../../users/persistence/user.entity';
import { CallStatusEntity } from '../../call-statuses/persistence/call-status.entity';

/**
 * `call`: one call reported by the telephony platform. Ingested by tuned SQL; triggers in the
 * migrations keep `created_at` to the second and the call counters current (TypeORM does not
 * model triggers: they stay in the migrations).
 */
@Entity('call')
@Unique('call_order_id_platform_call_id_key', ['orderId', 'platformCallId'])
// The lead must belong to the call's order.
@ForeignKey(() => LeadEntity, ['orderId', 'leadId'], ['orderId', 'id'], { name: 'call_order_id_lead_id_fkey' })
@Check('call_check', 'wait_time_duration_seconds + talk_time_duration_seconds <= total_duration_seconds')
@Check('call_direction_check', `direction IN ('incoming', 'outgoing')`)
@Check('call_finish_initiator_check', `finish_initiator IN ('agent', 'client', 'system')`)
@Check('call_talk_time_duration_seconds_check', 'talk_time_duration_seconds >= 0')
@Check('call_total_duration_seconds_check', 'total_duration_seconds >= 0')
@Check('call_wait_time_duration_seconds_check', 'wait_time_duration_seconds >= 0')
@Index('call_created_idx', ['createdAt', 'id'])
@Index('call_lead_idx', ['leadId', 'id'])
@Index('call_order_created_idx', ['orderId', 'createdAt'])
@Index('call_order_idx', ['orderId', 'id'])
@Index('call_order_user_id_idx', ['orderId', 'userId', 'id'])
@Index('call_user_idx', ['userId', 'id'])
export class CallEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'call_pkey' })
  id: number;

  /** In the primary key (id, order_id), as a table distributed by it must (docs/scaling.md). */
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_pkey' })
  @ForeignKey(() => CallOrderEntity, { name: 'call_order_id_fkey' })
  orderId: number;

  @Column({ type: 'integer' })
  leadId: number;

  @Column({ type: 'integer', nullable: true })
  @ForeignKey(() => UserEntity, { name: 'call_user_id_fkey' })
  userId: number | null;

  @Column({ type: 'integer' })
  @ForeignKey(() => SipEndpointEntity, { name: 'call_sip_endpoint_id_fkey' })
  sipEndpointId: number;

  @Column({ type: 'integer' })
  @ForeignKey(() => CallStatusEntity, { name: 'call_status_id_fkey' })
  statusId: number;

  @Column({ type: 'varchar', length: 10, nullable: true })
  finishInitiator: string | null;

  @Column({ type: 'varchar', length: 10 })
  direction: string;

  @Column({ type: 'integer' })
  totalDurationSeconds: number;

  @Column({ type: 'integer' })
  waitTimeDurationSeconds: number;

  @Column({ type: 'integer' })
  talkTimeDurationSeconds: number;

  @Column({ type: 'boolean', default: false })
  isPredictive: boolean;

  @Column({ type: 'varchar', length: 20 })
  clientPhone: string;

  @Column({ type: 'boolean', default: false })
  hasRecords: boolean;

  @Column({ type: 'boolean', default: false })
  callbackRequested: boolean;

  @Column({ type: 'varchar', length: 128 })
  platformCallId: string;

  /** The call recorded an opt-out (the flag or the status's, on any delivery): its number went on a do-not-call list. */
  @Column({ type: 'boolean', default: false })
  optOut: boolean;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  recordedAt: Date;
}
