import { Entity, Index, PrimaryGeneratedColumn, Column } from 'typeorm';
import { TimestampedEntity } from '../../../database/timestamped.entity';

/** `client`: a business whose campaigns (orders) the call center runs; client keys see only its data. */
@Entity('client')
@Index('client_name_lower_key', { synchronize: false })
export class ClientEntity extends TimestampedEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'client_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;
}
