import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Call counters (see call-counters.ts), per order and status (`call_count_*`) and per order, agent
 * and status (`call_user_count_*`). Statement triggers on `call` append deltas, the compactor folds
 * them; the triggers stay in the migrations. The day tables' primary keys carry
 * `INCLUDE (n, min_id, max_id)`, which TypeORM cannot state and does not compare.
 */
abstract class CountColumns {
  @Column({ type: 'bigint' })
  n: string;

  @Column({ type: 'integer', nullable: true })
  minId: number | null;

  @Column({ type: 'integer', nullable: true })
  maxId: number | null;
}

abstract class DeltaColumns {
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

@Entity('call_count_delta')
export class CallCountDeltaEntity extends DeltaColumns {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'call_count_delta_pkey' })
  id: string;
}

@Entity('call_count_hour')
@Index('call_count_hour_hour_idx', ['hour'])
export class CallCountHourEntity extends CountColumns {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_count_hour_pkey' })
  orderId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_count_hour_pkey' })
  statusId: number;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'call_count_hour_pkey' })
  hour: Date;
}

@Entity('call_count_day')
@Index('call_count_day_day_idx', ['day'])
export class CallCountDayEntity extends CountColumns {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_count_day_pkey' })
  orderId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_count_day_pkey' })
  statusId: number;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'call_count_day_pkey' })
  day: Date;
}

@Entity('call_count_total')
export class CallCountTotalEntity extends CountColumns {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_count_total_pkey' })
  orderId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_count_total_pkey' })
  statusId: number;
}

@Entity('call_user_count_delta')
export class CallUserCountDeltaEntity extends DeltaColumns {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'call_user_count_delta_pkey' })
  id: string;

  @Column({ type: 'integer' })
  userId: number;
}

@Entity('call_user_count_hour')
@Index('call_user_count_hour_hour_idx', ['hour'])
export class CallUserCountHourEntity extends CountColumns {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_user_count_hour_pkey' })
  orderId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_user_count_hour_pkey' })
  userId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_user_count_hour_pkey' })
  statusId: number;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'call_user_count_hour_pkey' })
  hour: Date;
}

@Entity('call_user_count_day')
@Index('call_user_count_day_day_idx', ['day'])
export class CallUserCountDayEntity extends CountColumns {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_user_count_day_pkey' })
  orderId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_user_count_day_pkey' })
  userId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_user_count_day_pkey' })
  statusId: number;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'call_user_count_day_pkey' })
  day: Date;
}

@Entity('call_user_count_total')
export class CallUserCountTotalEntity extends CountColumns {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_user_count_total_pkey' })
  orderId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_user_count_total_pkey' })
  userId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'call_user_count_total_pkey' })
  statusId: number;
}

export const CALL_COUNT_ENTITIES = [
  CallCountDeltaEntity,
  CallCountHourEntity,
  CallCountDayEntity,
  CallCountTotalEntity,
  CallUserCountDeltaEntity,
  CallUserCountHourEntity,
  CallUserCountDayEntity,
  CallUserCountTotalEntity,
];
