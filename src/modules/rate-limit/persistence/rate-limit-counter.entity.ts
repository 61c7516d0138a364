import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * `rate_limit_counter`: hits per key and window. The migration creates it UNLOGGED (counters may
 * be lost in a crash, and skip the WAL); TypeORM has no such option and does not compare it.
 */
@Entity('rate_limit_counter')
@Index('rate_limit_counter_window_idx', ['windowStart'])
export class RateLimitCounterEntity {
  @PrimaryColumn({ type: 'varchar', length: 200, primaryKeyConstraintName: 'rate_limit_counter_pkey' })
  key: string;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'rate_limit_counter_pkey' })
  windowStart: Date;

  @Column({ type: 'integer' })
  hits: number;
}
