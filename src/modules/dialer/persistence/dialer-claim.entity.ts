import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * `dialer_claim`: a lead a dialer holds until `lease_expires_at`. One row per lead (the key), so a second live claim of a lead cannot
 * be written: a claim replaces the row only once its lease has expired (INSERT .. ON CONFLICT .. WHERE expired). `order_id` leads the
 * key, as in every table distributed by order on a Citus cluster. Ended claims are deleted; expired ones when the sweep or the next
 * claim of the lead meets them.
 */
@Entity('dialer_claim')
@Index('dialer_claim_token_idx', ['claimToken'])
@Index('dialer_claim_lease_idx', ['leaseExpiresAt'])
export class DialerClaimEntity {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'dialer_claim_pkey' })
  orderId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'dialer_claim_pkey' })
  leadId: number;

  @Column({ type: 'uuid' })
  claimToken: string;

  @Column({ type: 'varchar', length: 100 })
  dialerId: string;

  @Column({ type: 'timestamptz' })
  claimedAt: Date;

  @Column({ type: 'timestamptz' })
  leaseExpiresAt: Date;
}
