import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ClientEntity } from '../../clients/persistence/client.entity';
import { CallOrderEntity } from '../../orders/persistence/call-order.entity';
import type { DncScope, DncSource } from '../domain/dnc-entry';

/** The unique index of a number per list: (phone, scope, the list's owner); phone first, so it also serves the lookups by phone. */
export const DNC_ENTRY_KEY = 'dnc_entry_phone_owner_key';

/** `dnc_entry`: a number on a do-not-call list (global, a client's or an order's), with an optional expiry. */
@Entity('dnc_entry')
@Check('dnc_entry_scope_check', `scope IN ('global', 'client', 'order')`)
@Check('dnc_entry_source_check', `source IN ('api', 'call')`)
@Check(
  'dnc_entry_owner_check',
  `(scope = 'global' AND order_id IS NULL AND client_id IS NULL) OR (scope = 'client' AND client_id IS NOT NULL AND order_id IS NULL) OR (scope = 'order' AND order_id IS NOT NULL AND client_id IS NULL)`,
)
@Check('dnc_entry_phone_check', `phone ~ '^\\+[1-9][0-9]{6,14}$'`)
// An expression index (the owner is order_id or client_id): written in the migration.
@Index(DNC_ENTRY_KEY, { synchronize: false })
@Index('dnc_entry_pending_expiry_idx', ['expiresAt'], { where: 'expires_at IS NOT NULL AND NOT expiry_applied' })
export class DncEntryEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'dnc_entry_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 16 })
  phone: string;

  @Column({ type: 'varchar', length: 8 })
  scope: DncScope;

  @Column({ type: 'integer', nullable: true })
  @ForeignKey(() => CallOrderEntity, { name: 'dnc_entry_order_id_fkey' })
  orderId: number | null;

  @Column({ type: 'integer', nullable: true })
  @ForeignKey(() => ClientEntity, { name: 'dnc_entry_client_id_fkey' })
  clientId: number | null;

  @Column({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  reason: string | null;

  @Column({ type: 'varchar', length: 8, default: 'api' })
  source: DncSource;

  // No foreign key: calls are truncated and compacted on their own, an entry outlives its call.
  @Column({ type: 'integer', nullable: true })
  callId: number | null;

  /** The entry's expiry has been applied to the leads it held (re-planned); an add that sets a new expiry clears it. */
  @Column({ type: 'boolean', default: false })
  expiryApplied: boolean;

  @CreateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
