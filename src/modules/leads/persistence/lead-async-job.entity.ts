import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** `lead_async_job`: a lead creation accepted with 202, worked by the queue; its outcome is polled. */
@Entity('lead_async_job')
@Check('lead_async_job_state_check', `state IN ('queued', 'done', 'failed')`)
@Index('lead_async_job_created_idx', ['createdAt'])
@Index('lead_async_job_queued_idx', ['createdAt'], { where: `state = 'queued'` })
export class LeadAsyncJobEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'lead_async_job_pkey' })
  id: string;

  @Column({ type: 'varchar', length: 8, default: 'queued' })
  state: string;

  @Column({ type: 'integer', nullable: true })
  orderId: number | null;

  @Column({ type: 'integer', nullable: true })
  leadId: number | null;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  errors: unknown[];

  @Column({ type: 'jsonb' })
  payload: unknown;

  @Column({ type: 'integer', nullable: true })
  apiKeyId: number | null;

  @CreateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}
