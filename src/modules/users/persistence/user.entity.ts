import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { AccessGroupValue, LanguageCode, NotificationPriority, PhoneMode, User } from '../domain/user';

/** `app_user`: the platform's users (agents, supervisors, clients). */
@Entity('app_user')
@Check('app_user_access_group_check', `access_group IN ('', 'client', 'call-center', 'call-center-senior', 'arbitration', 'moderator', 'admin')`)
@Check('app_user_auto_answer_check', 'auto_answer BETWEEN -1 AND 10')
@Check('app_user_email_notifications_priority_check', `email_notifications_priority = 'urgent'`)
@Check('app_user_interface_language_code_check', `interface_language_code IN ('ru', 'gb')`)
@Check('app_user_phone_mode_check', `phone_mode IN ('default', 'outgoing-only', 'incoming-only', 'predictive')`)
@Check('app_user_telegram_notifications_priority_check', `telegram_notifications_priority = 'urgent'`)
@Index('app_user_active_idx', ['isActive', 'id'])
@Index('app_user_group_active_idx', ['accessGroup', 'isActive', 'id'])
// UNIQUE on lower(email): TypeORM cannot state an expression index, so the migration owns it and the generator leaves it alone.
@Index('app_user_email_idx', { synchronize: false })
export class UserEntity implements User {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'app_user_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 100, nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  lastName: string | null;

  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @Column({ type: 'varchar', length: 32, default: '' })
  accessGroup: AccessGroupValue;

  @Column({ type: 'boolean', default: false })
  webRtcIsEnabled: boolean;

  @Column({ type: 'varchar', length: 8, default: 'ru' })
  interfaceLanguageCode: LanguageCode;

  @Column({ type: 'text', array: true, default: () => `'{}'` })
  languageSkillsCode: LanguageCode[];

  @Column({ type: 'smallint', default: 0 })
  autoAnswer: number;

  @Column({ type: 'varchar', length: 20, default: 'default' })
  phoneMode: PhoneMode;

  @Column({ type: 'varchar', length: 500, nullable: true })
  avatar: string | null;

  @Column({ type: 'boolean', default: false })
  telegramNotificationsEnabled: boolean;

  @Column({ type: 'varchar', length: 64, nullable: true })
  telegramChatId: string | null;

  @Column({ type: 'varchar', length: 10, nullable: true })
  telegramNotificationsPriority: NotificationPriority | null;

  @Column({ type: 'boolean', default: false })
  emailNotificationsEnabled: boolean;

  @Column({ type: 'varchar', length: 10, nullable: true })
  emailNotificationsPriority: NotificationPriority | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastLoginAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastActivityAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
