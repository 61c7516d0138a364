import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { INT32_MAX } from '../../../../common/id.pipe';
import { IntQuery, PageQuery } from '../../../../common/query';
import {
  NOTIFICATION_GROUPS,
  NOTIFICATION_LEVELS,
  NOTIFICATION_TYPES,
  NotificationContent,
  NotificationGroup,
  NotificationLevel,
  NotificationType,
  TEXT_MAX_LENGTH,
  TITLE_MAX_LENGTH,
} from '../../domain/notification';

const NOT_BLANK = /\S/;

/** The fields every notification has; all required. */
class NotificationContentDto {
  @ApiProperty({ enum: NOTIFICATION_TYPES, example: 'default', description: 'urgent: opens automatically for a user who is online' })
  @IsIn(NOTIFICATION_TYPES)
  type: NotificationType;

  @ApiProperty({ enum: NOTIFICATION_LEVELS, example: 'warning' })
  @IsIn(NOTIFICATION_LEVELS)
  level: NotificationLevel;

  @ApiProperty({ maxLength: TITLE_MAX_LENGTH, example: 'Смена начинается через 15 минут' })
  @IsString()
  @Matches(NOT_BLANK, { message: '$property must not be empty' })
  @MaxLength(TITLE_MAX_LENGTH)
  title: string;

  @ApiProperty({ maxLength: TEXT_MAX_LENGTH, example: 'Please log in to the softphone before 09:00.' })
  @IsString()
  @Matches(NOT_BLANK, { message: '$property must not be empty' })
  @MaxLength(TEXT_MAX_LENGTH)
  text: string;
}

export class GroupNotificationDto extends NotificationContentDto {
  @ApiProperty({ enum: NOTIFICATION_GROUPS, example: 'call-center', description: 'access group; its active users receive it' })
  @IsIn(NOTIFICATION_GROUPS)
  group: NotificationGroup;
}

export class PrivateNotificationDto extends NotificationContentDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: INT32_MAX, example: 12, description: 'an existing user (404 otherwise)' })
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  user_id: number;
}

export class PublicNotificationDto extends NotificationContentDto {}

export function contentOf(dto: NotificationContentDto): NotificationContent {
  return { type: dto.type, level: dto.level, title: dto.title, text: dto.text };
}

export class NotificationListQuery extends PageQuery {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: INT32_MAX, example: 12, description: 'the recipient' })
  @IntQuery()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  userId: number;
}
