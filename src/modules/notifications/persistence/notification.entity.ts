import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { UserEntity } from '../../users/persistence/user.entity';

/** `notification`: a message to a group, one user or everyone; `notification_delivery` fans it out. */
@Entity('notification')
@Check('notification_check', `(scope = 'group') = (target_group IS NOT NULL)`)
@Check('notification_level_check', `level IN ('default', 'success', 'warning', 'danger')`)
@Check('notification_scope_check', `scope IN ('group', 'private', 'public')`)
@Check('notification_target_group_check', `target_group IN ('client', 'call-center', 'call-center-senior', 'arbitration', 'moderator', 'admin')`)
@Check('notification_type_check', `type IN ('default', 'urgent')`)
export class NotificationEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'notification_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 16 })
  scope: string;

  @Column({ type: 'varchar', length: 16 })
  type: string;

  @Column({ type: 'varchar', length: 16 })
  level: string;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'varchar', length: 4000 })
  text: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  targetGroup: string | null;

  @Column({ type: 'integer', nullable: true })
  @ForeignKey(() => UserEntity, { name: 'notification_target_user_id_fkey', onDelete: 'SET NULL' })
  targetUserId: number | null;

  @Column({ type: 'integer', default: 0 })
  recipientCount: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}

/** `notification_delivery`: one notification to one user over one channel, worked until sent, failed or skipped. */
@Entity('notification_delivery')
@Unique('notification_delivery_notification_id_user_id_channel_key', ['notificationId', 'userId', 'channel'])
@Check('notification_delivery_channel_check', `channel IN ('inbox', 'email', 'messenger')`)
@Check('notification_delivery_status_check', `status IN ('pending', 'sent', 'failed', 'skipped', 'delivered')`)
@Index('notification_delivery_pending_idx', ['id'], { where: `status = 'pending'` })
@Index('notification_delivery_user_idx', ['userId', 'channel', 'notificationId'])
export class NotificationDeliveryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'notification_delivery_pkey' })
  id: string;

  @Column({ type: 'integer' })
  @ForeignKey(() => NotificationEntity, { name: 'notification_delivery_notification_id_fkey', onDelete: 'CASCADE' })
  notificationId: number;

  @Column({ type: 'integer' })
  @ForeignKey(() => UserEntity, { name: 'notification_delivery_user_id_fkey', onDelete: 'CASCADE' })
  userId: number;

  @Column({ type: 'varchar', length: 16 })
  channel: string;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ type: 'varchar', length: 254, nullable: true })
  address: string | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  lastError: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  sentAt: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
