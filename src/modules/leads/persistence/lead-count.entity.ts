import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Lead counters (see lead-counters.ts). Statement triggers on `lead` append signed deltas; the
 * compactor folds them into the hour, day and total tables, whose own triggers keep the
 * all-orders rollups. The triggers and their functions stay in the migrations (TypeORM does not
 * model them). The day tables' primary keys carry `INCLUDE (n, min_id, max_id)` for index-only
 * counts: TypeORM cannot state INCLUDE, and it compares primary keys by their columns only, so the
 * generator sees no difference.
 */
abstract class CountColumns {
  @Column({ type: 'bigint' })
  n: string;

  @Column({ type: 'integer', nullable: true })
  minId: number | null;

  @Column({ type: 'integer', nullable: true })
  maxId: number | null;
}

/** `lead_count_delta`: changes not yet folded in. */
@Entity('lead_count_delta')
export class LeadCountDeltaEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'lead_count_delta_pkey' })
  id: string;

  @Column({ type: 'integer' })
  orderId: number;

  @Column({ type: 'integer' })
  statusId: number;

  @Column({ type: 'timestamptz' })
  hour: Date;

  @Column({ type: 'integer' })
  n: number;

  @Column({ type: 'integer', nullable: true })
  minId: number | null;

  @Column({ type: 'integer', nullable: true })
  maxId: number | null;
}

@Entity('lead_count_hour')
@Index('lead_count_hour_hour_idx', ['hour'])
export class LeadCountHourEntity extends CountColumns {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'lead_count_hour_pkey' })
  orderId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'lead_count_hour_pkey' })
  statusId: number;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'lead_count_hour_pkey' })
  hour: Date;
}

@Entity('lead_count_day')
@Index('lead_count_day_day_idx', ['day'])
export class LeadCountDayEntity extends CountColumns {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'lead_count_day_pkey' })
  orderId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'lead_count_day_pkey' })
  statusId: number;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'lead_count_day_pkey' })
  day: Date;
}

@Entity('lead_count_total')
export class LeadCountTotalEntity extends CountColumns {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'lead_count_total_pkey' })
  orderId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'lead_count_total_pkey' })
  statusId: number;
}

/** `lead_count_rollup_hour`: all orders together, per status and hour. */
@Entity('lead_count_rollup_hour')
export class LeadCountRollupHourEntity extends CountColumns {
  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'lead_count_rollup_hour_pkey' })
  hour: Date;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'lead_count_rollup_hour_pkey' })
  statusId: number;
}

@Entity('lead_count_rollup_day')
export class LeadCountRollupDayEntity extends CountColumns {
  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'lead_count_rollup_day_pkey' })
  day: Date;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'lead_count_rollup_day_pkey' })
  statusId: number;
}

@Entity('lead_count_rollup_total')
export class LeadCountRollupTotalEntity extends CountColumns {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'lead_count_rollup_total_pkey' })
  statusId: number;
}

export const LEAD_COUNT_ENTITIES = [
  LeadCountDeltaEntity,
  LeadCountHourEntity,
  LeadCountDayEntity,
  LeadCountTotalEntity,
  LeadCountRollupHourEntity,
  LeadCountRollupDayEntity,
  LeadCountRollupTotalEntity,
];
