import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { ClientEntity } from '../../clients/persistence/client.entity';

/**
 * `webhook` (migration 1763900100000-webhooks): an integrator's subscription. Read and written by
 * WebhooksRepository's SQL; the secrets are read only by the delivery claim.
 */
@Entity('webhook')
@Check('webhook_events_check', `cardinality(events) > 0`)
export class WebhookEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'webhook_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** Event types, or `{*}`; never empty. */
  @Column({ type: 'varchar', length: 64, array: true })
  events: string[];

  /** The client whose keys own it (and whose orders' events alone it receives); NULL: an unrestricted key's. */
  @Column({ type: 'integer', nullable: true })
  @ForeignKey(() => ClientEntity, { name: 'webhook_client_id_fkey' })
  clientId: number | null;

  /** Orders whose events it receives; empty = all. */
  @Column({ type: 'integer', array: true, default: () => "'{}'" })
  orderIds: number[];

  @Column({ type: 'varchar', length: 500, default: '' })
  description: string;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  /** `whsec_` + base64 key, kept as is: signing needs the key itself. Never presented. */
  @Column({ type: 'varchar', length: 128 })
  secret: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  previousSecret: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  disabledReason: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  /** Start of the current run of failed attempts; null after a success. */
  @Column({ type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}

/** `webhook_delivery`: one event for one webhook, worked by WebhookDeliveryWorker until delivered or failed. */
@Entity('webhook_delivery')
@Unique('webhook_delivery_webhook_event_key', ['webhookId', 'eventId'])
@Check('webhook_delivery_status_check', `status IN ('pending', 'delivered', 'failed')`)
@Index('webhook_delivery_due_idx', ['nextAttemptAt'], { where: `status = 'pending'` })
@Index('webhook_delivery_created_idx', ['createdAt'])
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'webhook_delivery_pkey' })
  id: string;

  @Column({ type: 'integer' })
  @ForeignKey(() => WebhookEntity, { name: 'webhook_delivery_webhook_id_fkey', onDelete: 'CASCADE' })
  webhookId: number;

  @Column({ type: 'varchar', length: 64 })
  eventId: string;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  /** The request body exactly as signed and sent. */
  @Column({ type: 'text' })
  payload: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: string;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ type: 'integer', nullable: true })
  lastStatusCode: number | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  lastError: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}

/** `webhook_dispatch_cursor`: the one row holding the feed position the dispatcher has handled. */
@Entity('webhook_dispatch_cursor')
@Check('webhook_dispatch_cursor_id_check', `id = 1`)
export class WebhookDispatchCursorEntity {
  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'webhook_dispatch_cursor_pkey' })
  id: number;

  @Column({ type: 'bigint' })
  position: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}

export const WEBHOOK_ENTITIES = [WebhookEntity, WebhookDeliveryEntity, WebhookDispatchCursorEntity];
