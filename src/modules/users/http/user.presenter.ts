import { ApiProperty } from '@nestjs/swagger';
import { isoDateTime, sqlDateTime } from '../../../common/dates';
import { ACCESS_GROUP_VALUES, LANGUAGE_CODES, NOTIFICATION_PRIORITIES, PHONE_MODES, User, avatarOrPlaceholder } from '../domain/user';

/** The User object of API.md, field by field. */
export class UserView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) lastName: string | null;
  @ApiProperty() email: string;
  @ApiProperty() isActive: boolean;
  @ApiProperty({ enum: ACCESS_GROUP_VALUES, description: "'' = no access group" }) accessGroup: string;
  @ApiProperty() webRtcIsEnabled: boolean;
  @ApiProperty({ enum: LANGUAGE_CODES }) interfaceLanguageCode: string;
  @ApiProperty({ enum: LANGUAGE_CODES, isArray: true }) languageSkillsCode: string[];
  @ApiProperty({ type: 'integer', minimum: -1, maximum: 10 }) autoAnswer: number;
  @ApiProperty({ enum: PHONE_MODES }) phoneMode: string;
  @ApiProperty({ description: 'URL; a placeholder image URL when none is set' }) avatar: string;
  @ApiProperty() telegramNotificationsEnabled: boolean;
  @ApiProperty({ type: String, nullable: true }) telegramChatId: string | null;
  @ApiProperty({ enum: NOTIFICATION_PRIORITIES, nullable: true }) telegramNotificationsPriority: string | null;
  @ApiProperty() emailNotificationsEnabled: boolean;
  @ApiProperty({ enum: NOTIFICATION_PRIORITIES, nullable: true }) emailNotificationsPriority: string | null;
  @ApiProperty({ type: String, nullable: true, example: '2026-03-04 05:06:07' }) lastLoginAt: string | null;
  @ApiProperty({ type: String, nullable: true, example: '2026-03-04 05:06:07' }) lastActivityAt: string | null;
  @ApiProperty({ example: '2026-03-04T05:06:07+00:00' }) createdAt: string;
}

export function presentUser(u: User): UserView {
  return {
    id: u.id,
    name: u.name,
    lastName: u.lastName,
    email: u.email,
    isActive: u.isActive,
    accessGroup: u.accessGroup,
    webRtcIsEnabled: u.webRtcIsEnabled,
    interfaceLanguageCode: u.interfaceLanguageCode,
    languageSkillsCode: u.languageSkillsCode,
    autoAnswer: u.autoAnswer,
    phoneMode: u.phoneMode,
    avatar: avatarOrPlaceholder(u.avatar),
    telegramNotificationsEnabled: u.telegramNotificationsEnabled,
    telegramChatId: u.telegramChatId,
    telegramNotificationsPriority: u.telegramNotificationsPriority,
    emailNotificationsEnabled: u.emailNotificationsEnabled,
    emailNotificationsPriority: u.emailNotificationsPriority,
    lastLoginAt: sqlDateTime(u.lastLoginAt),
    lastActivityAt: sqlDateTime(u.lastActivityAt),
    createdAt: isoDateTime(u.createdAt),
  };
}
