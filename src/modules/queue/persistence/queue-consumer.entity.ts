import { Column, Entity, PrimaryColumn } from 'typeorm';

/** `queue_consumer`: each instance's consumers per queue, refreshed by a heartbeat (`seen_at`). */
@Entity('queue_consumer')
export class QueueConsumerEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'queue_consumer_pkey' })
  instanceId: string;

  @PrimaryColumn({ type: 'varchar', length: 100, primaryKeyConstraintName: 'queue_consumer_pkey' })
  queueName: string;

  @Column({ type: 'integer' })
  consumers: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  seenAt: Date;
}
