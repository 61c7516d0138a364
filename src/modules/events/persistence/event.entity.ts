import { Check, Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * `event`: the transactional outbox. Written by the triggers on lead, call and lead_async_job and by EventOutbox.append, numbered
 * by the `event_sequence` function, read by EventsRepository's SQL; the triggers and the function are defined in the migrations
 * (TypeORM does not model them).
 */
@Entity('event')
// Writers touch only the primary key and this partial index; the sequencer reads it.
@Index('event_unsequenced_idx', ['seq'], { where: 'position IS NULL' })
// The feed: by position, by (type, position), by (order_id, position).
// Unique with order_id, as a distributed table requires; the one sequencer gives each position once.
@Index('event_position_idx', ['position', 'orderId'], { unique: true, where: 'position IS NOT NULL' })
@Index('event_type_position_idx', ['type', 'position'], { where: 'position IS NOT NULL' })
@Index('event_order_position_idx', ['orderId', 'position'], { where: 'position IS NOT NULL' })
// A client key's events of its client's own do-not-call list (they carry no order).
@Index('event_client_position_idx', ['clientId', 'position'], { where: 'position IS NOT NULL AND client_id IS NOT NULL' })
export class EventEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'event_pkey' })
  id: string;

  /** Write order: the sequencer numbers committed events in this order. */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS' })
  seq: string;

  /** Feed position; NULL until the sequencer numbers the event. */
  @Column({ type: 'bigint', nullable: true })
  position: string | null;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  /** The event's order; 0 for an event that has none (a webhook test, a client's or the global do-not-call list): a distributed table's key. */
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'event_pkey' })
  orderId: number;

  /** The client of an event that has no order but belongs to a client (a change of the client's do-not-call list); else null. */
  @Column({ type: 'integer', nullable: true })
  clientId: number | null;

  /** A row snapshot (lead and call events) or the event's data (the others). */
  @Column({ type: 'jsonb' })
  payload: unknown;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}

/** `event_retention`: the highest position retention has deleted (one row). */
@Entity('event_retention')
@Check('event_retention_singleton_check', 'singleton')
export class EventRetentionEntity {
  @PrimaryColumn({ type: 'boolean', default: true, primaryKeyConstraintName: 'event_retention_pkey' })
  singleton: boolean;

  @Column({ type: 'bigint', default: 0 })
  prunedThrough: string;
}
