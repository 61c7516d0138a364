import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Planned-call counters (see lead-planning-counters.ts; migration 1763900310000): leads per order
 * and UTC hour of `planning_call_at`, leads without a planned call not counted. Triggers and
 * functions stay in the migration; the day table's key carries INCLUDE (n, min_id, max_id), which
 * TypeORM neither states nor compares (as for lead-count.entity.ts).
 */
abstract class CountColumns {
  @Column({ type: 'bigint' })
  n: string;

  @Column({ type: 'integer', nullable: true })
  minId: number | null;

  @Column({ type: 'integer', nullable: true })
  maxId: number | null;
}

/** `lead_planning_count_delta`: changes not yet folded in. */
@Entity('lead_planning_count_delta')
export class LeadPlanningCountDeltaEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'lead_planning_count_delta_pkey' })
  id: string;

  @Column({ type: 'integer' })
  orderId: number;

  @Column({ type: 'timestamptz' })
  hour: Date;

  @Column({ type: 'integer' })
  n: number;

  @Column({ type: 'integer', nullable: true })
  minId: number | null;

  @Column({ type: 'integer', nullable: true })
  maxId: number | null;
}

@Entity('lead_planning_count_hour')
@Index('lead_planning_count_hour_hour_idx', ['hour'])
export class LeadPlanningCountHourEntity extends CountColumns {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'lead_planning_count_hour_pkey' })
  orderId: number;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'lead_planning_count_hour_pkey' })
  hour: Date;
}

@Entity('lead_planning_count_day')
@Index('lead_planning_count_day_day_idx', ['day'])
export class LeadPlanningCountDayEntity extends CountColumns {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'lead_planning_count_day_pkey' })
  orderId: number;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'lead_planning_count_day_pkey' })
  day: Date;
}

@Entity('lead_planning_count_total')
export class LeadPlanningCountTotalEntity extends CountColumns {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'lead_planning_count_total_pkey' })
  orderId: number;
}

export const LEAD_PLANNING_COUNT_ENTITIES = [
  LeadPlanningCountDeltaEntity,
  LeadPlanningCountHourEntity,
  LeadPlanningCountDayEntity,
  LeadPlanningCountTotalEntity,
];
