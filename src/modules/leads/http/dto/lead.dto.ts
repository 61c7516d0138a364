import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsIP, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { INT32_MAX } from '../../../../common/id.pipe';
import { Nullable, Optional } from '../../../../common/presence';
import { LEAD_SOURCES, LEAD_TYPES, LeadSource, LeadType } from '../../domain/lead';
import { MAX_UTC_OFFSET, MIN_UTC_OFFSET } from '../../domain/utc-offset';
import { IsPositiveIdLike, IsTextOrJson, IsValuesMap } from './lead-validators';

const TEXT = 255;
const COMMENT_MAX = 65_535;
const INT32_MIN = -2_147_483_648;

/** Optional fields shared by create and update (v2 names). */
class LeadFieldsV2 {
  @ApiPropertyOptional({ description: 'Client name', example: 'Анна Петрова' })
  @Optional() @IsString() @MaxLength(TEXT)
  name?: string;

  @ApiPropertyOptional({ description: 'Questionnaire comment or log: plain text or a JSON string (a JSON object is stored as its text)', example: '{"rooms":2}' })
  @Optional() @IsTextOrJson(COMMENT_MAX)
  sourceComment?: string | object;

  @ApiPropertyOptional({ description: 'IP address of the person who left the lead, if collected', example: '203.0.113.7' })
  @Optional() @IsIP()
  ip?: string;

  @ApiPropertyOptional({ description: 'Lead id in external CRM A' })
  @Optional() @IsString() @MaxLength(TEXT)
  externalIdCrmA?: string;

  @ApiPropertyOptional({ description: 'Lead id in external CRM B' })
  @Optional() @IsString() @MaxLength(TEXT)
  externalIdCrmB?: string;

  @ApiPropertyOptional({ description: 'Lead id in external CRM C' })
  @Optional() @IsString() @MaxLength(TEXT)
  externalIdCrmC?: string;

  @ApiPropertyOptional({ description: 'Lead id in external CRM D' })
  @Optional() @IsString() @MaxLength(TEXT)
  externalIdCrmD?: string;

  @ApiPropertyOptional({ description: 'Priority in the call queue', example: 0 })
  @Optional() @IsInt() @Min(INT32_MIN) @Max(INT32_MAX)
  priority?: number;

  @ApiPropertyOptional({
    description: 'Client UTC offset in hours. When missing on create: from the phone country if it has one offset, else the order default.',
    example: 3,
    minimum: MIN_UTC_OFFSET,
    maximum: MAX_UTC_OFFSET,
  })
  @Optional() @IsInt() @Min(MIN_UTC_OFFSET) @Max(MAX_UTC_OFFSET)
  utcOffset?: number;

  @ApiPropertyOptional({ enum: LEAD_SOURCES, default: 'organic' })
  @Optional() @IsIn(LEAD_SOURCES)
  source?: LeadSource;

  @ApiPropertyOptional({ description: 'Campaign id in the advertising system named in source', maxLength: 64, nullable: true })
  @Nullable() @IsString() @MaxLength(64, { message: 'adCampaignId must be at most 64 characters' })
  adCampaignId?: string | null;

  @ApiPropertyOptional({ description: 'Custom field id -> value (fields of essence leads; value must match the field type)', example: { '1': 'Москва' } })
  @Optional() @IsValuesMap()
  customValues?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Messenger username' })
  @Optional() @IsString() @MaxLength(TEXT)
  messengerUserName?: string;

  @ApiPropertyOptional({ description: 'Messenger phone (E.164 recommended; normalised when valid)' })
  @Optional() @IsString() @MaxLength(32)
  messengerPhone?: string;

  @ApiPropertyOptional({ description: 'Social network A user id: a positive integer, as a string or a number', example: '123456789' })
  @Optional() @IsPositiveIdLike()
  socialAId?: string | number;

  @ApiPropertyOptional({ description: 'Social network B login' })
  @Optional() @IsString() @MaxLength(TEXT)
  socialBLogin?: string;
}

export class CreateLeadV2Dto extends LeadFieldsV2 {
  @ApiProperty({ enum: LEAD_TYPES })
  @IsIn(LEAD_TYPES)
  leadType: LeadType;

  @ApiProperty({ description: 'Client phone, E.164 with or without the leading +; stored and returned as +E.164', example: '+79161234567' })
  @IsString() @Length(1, 32)
  phone: string;

  @ApiProperty({ example: 1, minimum: 1 })
  @IsInt() @Min(1) @Max(INT32_MAX)
  orderId: number;

  @ApiProperty({ description: 'Code of the same order as orderId (400 when they disagree)', example: 'novostroyki-moskvy' })
  @IsString() @Length(1, 64)
  orderCode: string;

  @ApiPropertyOptional({ description: 'Lead status code; on creation only in-progress statuses (GET /v2/lead-status/). Default: the catalogue default.' })
  @Optional() @IsInt() @Min(1) @Max(INT32_MAX)
  statusId?: number;
}

export class UpdateLeadV2Dto extends LeadFieldsV2 {
  @ApiPropertyOptional({ description: 'Client phone, E.164 with or without +' })
  @Optional() @IsString() @Length(1, 32)
  phone?: string;

  @ApiPropertyOptional({ description: 'Lead status code (any status of GET /v2/lead-status/); entering a qualified status counts against the order qualifiedLeadsPerDayLimit (409 past it)' })
  @Optional() @IsInt() @Min(1) @Max(INT32_MAX)
  statusId?: number;
}
