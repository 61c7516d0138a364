import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** `call_attempt_group`: redial intervals (minutes) for orders; exactly one is the default. */
@Entity('call_attempt_group')
// At most one row has is_default: the database, not the service, keeps that true under concurrency.
@Index('call_attempt_group_one_default_idx', ['isDefault'], { unique: true, where: 'is_default' })
export class CallAttemptGroupEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'call_attempt_group_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'integer', array: true, default: () => `'{}'` })
  intervals: number[];

  @Column({ type: 'boolean', default: false })
  isDefault: boolean;

  @Column({ type: 'boolean', default: false })
  resetAttemptsEnabled: boolean;

  @Column({ type: 'boolean', default: false })
  repeatLastInterval: boolean;

  @CreateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
