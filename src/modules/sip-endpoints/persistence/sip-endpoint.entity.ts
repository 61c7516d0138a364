import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

/** `sip_endpoint`: an outgoing line (number) orders call from. */
@Entity('sip_endpoint')
@Unique('sip_endpoint_number_key', ['number'])
export class SipEndpointEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'sip_endpoint_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 20 })
  number: string;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @CreateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
