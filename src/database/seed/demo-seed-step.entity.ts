import { Entity, PrimaryColumn, Column } from 'typeorm';

/** `demo_seed_step`: the demo seed steps already applied to this database (by name). */
@Entity('demo_seed_step')
export class DemoSeedStepEntity {
  @PrimaryColumn({ type: 'varchar', length: 100, primaryKeyConstraintName: 'demo_seed_step_pkey' })
  name: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  appliedAt: Date;
}
