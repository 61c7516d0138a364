import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampedEntity } from '../../../database/timestamped.entity';

/** `call_scenario`: a script agents follow on an order's calls. */
@Entity('call_scenario')
export class CallScenarioEntity extends TimestampedEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'call_scenario_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;
}
