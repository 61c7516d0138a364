import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * `event` (migration 1763900000000-events): the transactional outbox. Rows are written by the
 * triggers on lead, call and lead_async_job and by EventOutbox.append, numbered by the
 * `event_sequence` function, read by EventsRepository's SQL.
 *
 * Not mapped: `txid xid8 DEFAULT pg_current_xact_id()` (the writing transaction, which the
 * sequencer orders by): TypeORM has no xid8 column type, so the column lives in the migration only
 * and every insert leaves it to its default.
 */
@Entity('event')
export class EventEntity {
  @PrimaryColumn({ type: 'uuid', default: () => 'gen_random_uuid()' })
  id: string;

  /** Insertion order within a transaction. */
  @Column({ type: 'bigint', generatedIdentity: 'ALWAYS', generated: 'identity', insert: false, update: false })
  seq: string;

  /** Feed position; NULL until the sequencer numbers the event. */
  @Column({ type: 'bigint', nullable: true })
  position: string | null;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ name: 'order_id', type: 'int', nullable: true })
  orderId: number | null;

  /** A row snapshot (lead and call events) or the event's data (the others). */
  @Column({ type: 'jsonb' })
  payload: object;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}

/** `event_retention`: the highest position retention has deleted (one row). */
@Entity('event_retention')
export class EventRetentionEntity {
  @PrimaryColumn({ type: 'boolean', default: true })
  singleton: boolean;

  @Column({ name: 'pruned_through', type: 'bigint', default: 0 })
  prunedThrough: string;
}
