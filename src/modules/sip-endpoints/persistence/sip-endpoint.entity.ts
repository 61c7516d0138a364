import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { TimestampedEntity } from '../../../database/timestamped.entity';

/** `sip_endpoint`: an outgoing line (number) orders call from. */
@Entity('sip_endpoint')
@Unique('sip_endpoint_number_key', ['number'])
export class SipEndpointEntity extends TimestampedEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'sip_endpoint_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 20 })
  number: string;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;
}
