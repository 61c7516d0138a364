import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { ClientEntity } from '../../clients/persistence/client.entity';
import type { Scope } from '../../../common/auth-context';

/** `api_key`: integrators' keys, stored as a prefix (to find it) and a SHA-256 hash (to check it). */
@Entity('api_key')
@Unique('api_key_key_hash_key', ['keyHash'])
@Index('api_key_prefix_idx', ['keyPrefix'])
// One active key per name; revoked ones keep theirs.
@Index('api_key_name_active_idx', ['name'], { unique: true, where: 'revoked_at IS NULL' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'api_key_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  keyPrefix: string;

  @Column({ type: 'char', length: 64 })
  keyHash: string;

  @Column({ type: 'text', array: true })
  scopes: Scope[];

  /** A client key reaches only this client's data; NULL: an unrestricted key. */
  @Column({ type: 'integer', nullable: true })
  @ForeignKey(() => ClientEntity, { name: 'api_key_client_id_fkey' })
  clientId: number | null;

  @CreateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
