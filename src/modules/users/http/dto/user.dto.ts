import { whenLeftOut } from '../../../../common/dto-fields';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, IsUrl, Length, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { Transform } from 'class-transformer';
import { Nullable, Optional } from '../../../../common/presence';
import { BoolQuery, PageQuery } from '../../../../common/query';
import {
  ACCESS_GROUPS,
  ACCESS_GROUP_VALUES,
  AUTO_ANSWER_MAX,
  AUTO_ANSWER_MIN,
  type AccessGroup,
  type AccessGroupValue,
  LANGUAGE_CODES,
  type LanguageCode,
  NOTIFICATION_PRIORITIES,
  type NotificationPriority,
  PHONE_MODES,
  type PhoneMode,
  parseUserDateTime,
} from '../../domain/user';

const IsUserDateTime = () =>
  ValidateBy({
    name: 'isUserDateTime',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && parseUserDateTime(value) !== null,
      defaultMessage: (args) => `${args?.property} must be an ISO 8601 date-time or yyyy-mm-dd hh:mm:ss`,
    },
  });

/** Every writable field of a user but the e-mail; create and update differ only in whether e-mail is required. */
class UserFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100, example: 'Анна' })
  @Nullable()
  @IsString()
  @MaxLength(100)
  name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100, example: 'Смирнова' })
  @Nullable()
  @IsString()
  @MaxLength(100)
  lastName?: string | null;

  @ApiPropertyOptional({ description: whenLeftOut(true) })
  @Optional()
  @IsBoolean()
  isActive?: boolean;

  @ApiPropertyOptional({ enum: ACCESS_GROUP_VALUES, description: whenLeftOut('', "'' = no access group") })
  @Optional()
  @IsIn(ACCESS_GROUP_VALUES)
  accessGroup?: AccessGroupValue;

  @ApiPropertyOptional({ description: whenLeftOut(false) })
  @Optional()
  @IsBoolean()
  webRtcIsEnabled?: boolean;

  @ApiPropertyOptional({ enum: LANGUAGE_CODES, description: whenLeftOut('ru') })
  @Optional()
  @IsIn(LANGUAGE_CODES)
  interfaceLanguageCode?: LanguageCode;

  @ApiPropertyOptional({ enum: LANGUAGE_CODES, isArray: true, description: whenLeftOut([], 'duplicates are collapsed') })
  @Optional()
  @IsArray()
  @ArrayMaxSize(LANGUAGE_CODES.length * 4)
  @IsIn(LANGUAGE_CODES, { each: true })
  languageSkillsCode?: LanguageCode[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: AUTO_ANSWER_MIN,
    maximum: AUTO_ANSWER_MAX,
    description: whenLeftOut(0, '-1 instant, 0 disabled, 1..10 seconds'),
  })
  @Optional()
  @IsInt()
  @Min(AUTO_ANSWER_MIN)
  @Max(AUTO_ANSWER_MAX)
  autoAnswer?: number;

  @ApiPropertyOptional({ enum: PHONE_MODES, description: whenLeftOut('default') })
  @Optional()
  @IsIn(PHONE_MODES)
  phoneMode?: PhoneMode;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 500,
    example: 'https://cdn.example.com/avatars/anna.png',
    description: 'http(s) URL; null = placeholder image',
  })
  @Nullable()
  @IsString()
  @MaxLength(500)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  avatar?: string | null;

  @ApiPropertyOptional({ description: whenLeftOut(false) })
  @Optional()
  @IsBoolean()
  telegramNotificationsEnabled?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 64, example: '401100299' })
  @Nullable()
  @IsString()
  @Length(1, 64)
  telegramChatId?: string | null;

  @ApiPropertyOptional({ enum: NOTIFICATION_PRIORITIES, nullable: true, description: 'null = all notifications, urgent = only urgent ones' })
  @Nullable()
  @IsIn(NOTIFICATION_PRIORITIES)
  telegramNotificationsPriority?: NotificationPriority | null;

  @ApiPropertyOptional({ description: whenLeftOut(false) })
  @Optional()
  @IsBoolean()
  emailNotificationsEnabled?: boolean;

  @ApiPropertyOptional({ enum: NOTIFICATION_PRIORITIES, nullable: true, description: 'null = all notifications, urgent = only urgent ones' })
  @Nullable()
  @IsIn(NOTIFICATION_PRIORITIES)
  emailNotificationsPriority?: NotificationPriority | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '2026-03-04 05:06:07', description: 'ISO 8601 or yyyy-mm-dd hh:mm:ss (UTC)' })
  @Nullable()
  @IsUserDateTime()
  lastLoginAt?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '2026-03-04 05:06:07', description: 'ISO 8601 or yyyy-mm-dd hh:mm:ss (UTC)' })
  @Nullable()
  @IsUserDateTime()
  lastActivityAt?: string | null;
}

export class CreateUserDto extends UserFieldsDto {
  @ApiProperty({ maxLength: 254, example: 'anna.smirnova@example.com', description: 'unique, case-insensitively' })
  @IsString()
  @MaxLength(254)
  @IsEmail()
  email: string;
}

export class UpdateUserDto extends UserFieldsDto {
  // User 1's own address in the demo, so "Try it out" on user 1 does not take another user's e-mail (409).
  @ApiPropertyOptional({ maxLength: 254, example: 'olga.ivanova@callcenter.example', description: 'unique, case-insensitively (409 when another user has it)' })
  @Optional()
  @IsString()
  @MaxLength(254)
  @IsEmail()
  email?: string;
}

export class UserListQuery extends PageQuery {
  @ApiPropertyOptional({ enum: ACCESS_GROUPS, description: 'only users of this access group (an empty value means no filter)' })
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))
  @IsOptional()
  @IsIn(ACCESS_GROUPS)
  accessGroup?: AccessGroup;

  @ApiPropertyOptional({ type: Boolean, description: 'true/false or 1/0' })
  @BoolQuery()
  @IsOptional()
  @IsBoolean()
  isActive?: boolean;
}
