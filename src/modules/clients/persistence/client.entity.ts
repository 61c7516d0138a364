import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** `client`: a business whose campaigns (orders) the call center runs; client keys see only its data. */
@Entity('client')
@Index('client_name_lower_key', { synchronize: false })
export class ClientEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'client_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
