import { whenLeftOut } from '../../../../common/dto-fields';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsIP, IsObject, IsString, Length, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { INT32_MAX } from '../../../../common/id.pipe';
import { CUSTOM_VALUES } from '../../../../common/openapi/envelope.decorators';
import { Nullable, Optional } from '../../../../common/presence';
import { MaxKeys } from '../../../../common/validation';
import { MAX_CUSTOM_VALUES } from '../../../custom-fields/domain/custom-value';
import { LEAD_SOURCES, LEAD_TYPES, type LeadSource, type LeadType } from '../../domain/lead';
import { TIME_ZONE_MAX_LENGTH } from '../../../orders/domain/time-zone';
import { MAX_UTC_OFFSET, MIN_UTC_OFFSET } from '../../domain/utc-offset';
import { ConsentDto } from './consent.dto';
import { IsPositiveIdLike, IsTextOrJson, IsValuesMap } from './lead-validators';

const TEXT = 255;
const COMMENT_MAX = 65_535;
const INT32_MIN = -2_147_483_648;
/** The longest IPv6 text (45, an IPv4-mapped address) plus a short zone id (`fe80::1%eth0`); validator.js accepts zones of any length. */
const IP_MAX = 64;

/** Optional fields shared by create and update (v2 names). */
class LeadFieldsV2 {
  @ApiPropertyOptional({ description: 'Client name', example: 'Анна Петрова', maxLength: TEXT })
  @Optional()
  @IsString()
  @MaxLength(TEXT)
  name?: string;

  @ApiPropertyOptional({
    type: String,
    description: `Questionnaire comment or log: plain text or a JSON string (a JSON object is stored as its text); at most ${COMMENT_MAX} characters`,
    example: '{"rooms":2}',
    maxLength: COMMENT_MAX,
  })
  @Optional()
  @IsTextOrJson(COMMENT_MAX)
  sourceComment?: string | object;

  @ApiPropertyOptional({
    description: 'IP address (IPv4 or IPv6, zone id allowed) of the person who left the lead, if collected',
    example: '203.0.113.7',
    maxLength: IP_MAX,
  })
  @Optional()
  @IsString()
  @MaxLength(IP_MAX)
  @IsIP()
  ip?: string;

  @ApiPropertyOptional({ description: 'Lead id in external CRM A', example: 'crm-a-10045', maxLength: TEXT })
  @Optional()
  @IsString()
  @MaxLength(TEXT)
  externalIdCrmA?: string;

  @ApiPropertyOptional({ description: 'Lead id in external CRM B', example: 'crm-b-10045', maxLength: TEXT })
  @Optional()
  @IsString()
  @MaxLength(TEXT)
  externalIdCrmB?: string;

  @ApiPropertyOptional({ description: 'Lead id in external CRM C', example: 'crm-c-10045', maxLength: TEXT })
  @Optional()
  @IsString()
  @MaxLength(TEXT)
  externalIdCrmC?: string;

  @ApiPropertyOptional({ description: 'Lead id in external CRM D', example: 'crm-d-10045', maxLength: TEXT })
  @Optional()
  @IsString()
  @MaxLength(TEXT)
  externalIdCrmD?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Priority in the call queue', example: 0 })
  @Optional()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  priority?: number;

  @ApiPropertyOptional({
    description: 'Client UTC offset in hours (a fixed offset: no DST). When missing on create: see timeZone for the resolution order.',
    type: 'integer',
    example: 3,
    minimum: MIN_UTC_OFFSET,
    maximum: MAX_UTC_OFFSET,
  })
  @Optional()
  @IsInt()
  @Min(MIN_UTC_OFFSET)
  @Max(MAX_UTC_OFFSET)
  utcOffset?: number;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: TIME_ZONE_MAX_LENGTH,
    example: 'Asia/Kolkata',
    description:
      'extension: IANA time zone of the client; calls are planned in its real local time (DST, +5:30, +5:45...). ' +
      'Wins over utcOffset. On create, when missing: utcOffset if sent (a fixed offset, timeZone null), else the phone ' +
      "country's zone when the country has a single one, else the order's defaultTimeZone, else its defaultUtcOffset. " +
      'On update null clears it (the lead keeps its utcOffset). An unknown name is a 400 on timeZone.',
  })
  @Nullable()
  @IsString()
  @MaxLength(TIME_ZONE_MAX_LENGTH)
  timeZone?: string | null;

  @ApiPropertyOptional({ enum: LEAD_SOURCES, description: whenLeftOut('organic') })
  @Optional()
  @IsIn(LEAD_SOURCES)
  source?: LeadSource;

  @ApiPropertyOptional({
    type: String,
    description: 'Campaign id in the advertising system named in source',
    example: 'spring-2026',
    maxLength: 64,
    nullable: true,
  })
  @Nullable()
  @IsString()
  @MaxLength(64, { message: 'adCampaignId must be at most 64 characters' })
  adCampaignId?: string | null;

  @ApiPropertyOptional({
    ...CUSTOM_VALUES,
    description: `Custom field id -> value (fields of essence leads; value must match the field type); at most ${MAX_CUSTOM_VALUES} values`,
    example: { '1': 'Москва' },
    maxProperties: MAX_CUSTOM_VALUES,
  })
  @Optional()
  @IsValuesMap()
  @MaxKeys(MAX_CUSTOM_VALUES, 'values (one per custom field)')
  customValues?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Messenger username', example: 'anna_petrova', maxLength: TEXT })
  @Optional()
  @IsString()
  @MaxLength(TEXT)
  messengerUserName?: string;

  @ApiPropertyOptional({ description: 'Messenger phone (E.164 recommended; normalised when valid)', example: '+79161234567', maxLength: 32 })
  @Optional()
  @IsString()
  @MaxLength(32)
  messengerPhone?: string;

  @ApiPropertyOptional({ type: String, description: 'Social network A user id: a positive integer, as a string or a number', example: '123456789' })
  @Optional()
  @IsPositiveIdLike()
  socialAId?: string | number;

  @ApiPropertyOptional({ description: 'Social network B login', example: 'anna.petrova', maxLength: TEXT })
  @Optional()
  @IsString()
  @MaxLength(TEXT)
  socialBLogin?: string;

  @ApiPropertyOptional({
    type: ConsentDto,
    nullable: true,
    description: 'Consent to be called; on update null withdraws it. An order with consentRequired dials only leads that have it.',
  })
  @Nullable()
  @IsObject()
  @ValidateNested()
  @Type(() => ConsentDto)
  consent?: ConsentDto | null;
}

export class CreateLeadV2Dto extends LeadFieldsV2 {
  @ApiProperty({ enum: LEAD_TYPES })
  @IsIn(LEAD_TYPES)
  leadType: LeadType;

  @ApiProperty({ description: 'Client phone, E.164 with or without the leading +; stored and returned as +E.164', example: '+79161234567', maxLength: 32 })
  @IsString()
  @Length(1, 32)
  phone: string;

  @ApiProperty({ type: 'integer', example: 1, minimum: 1, description: 'The order (campaign) of the lead: GET /v2/order/' })
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  orderId: number;

  @ApiProperty({ description: 'Code of the same order as orderId (400 when they disagree)', example: 'novostroyki-moskvy', maxLength: 64 })
  @IsString()
  @Length(1, 64)
  orderCode: string;

  @ApiPropertyOptional({
    type: 'integer',
    example: 1,
    description: 'Lead status id; on creation only in-progress statuses (GET /v2/lead-status/). Default: the catalogue default.',
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  statusId?: number;
}

export class UpdateLeadV2Dto extends LeadFieldsV2 {
  @ApiPropertyOptional({ description: 'Client phone, E.164 with or without +', example: '+79161234567', maxLength: 32 })
  @Optional()
  @IsString()
  @Length(1, 32)
  phone?: string;

  @ApiPropertyOptional({
    type: 'integer',
    example: 1,
    description:
      'Lead status id (any status of GET /v2/lead-status/); entering a qualified status counts against the order qualifiedLeadsPerDayLimit (409 past it)',
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  statusId?: number;
}
