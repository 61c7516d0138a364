import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** `idempotency_record`: the stored outcome of a request sent with an Idempotency-Key, per API key. */
@Entity('idempotency_record')
@Index('idempotency_record_created_idx', ['createdAt'])
export class IdempotencyRecordEntity {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'idempotency_record_pkey' })
  apiKeyId: number;

  @PrimaryColumn({ type: 'varchar', length: 255, primaryKeyConstraintName: 'idempotency_record_pkey' })
  key: string;

  @Column({ type: 'char', length: 64 })
  requestHash: string;

  /** NULL while the first request is still running. */
  @Column({ type: 'smallint', nullable: true })
  statusCode: number | null;

  @Column({ type: 'jsonb', nullable: true })
  response: unknown;

  @Column({ type: 'jsonb', nullable: true })
  responseHeaders: Record<string, string> | null;

  @CreateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  /** The request holding the record while it runs. */
  @Column({ type: 'uuid', nullable: true })
  owner: string | null;
}
