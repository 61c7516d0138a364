import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { INT32_MAX } from '../../../../common/id.pipe';
import { Optional } from '../../../../common/presence';
import { LEAD_TYPES, type LeadType } from '../../domain/lead';
import { MAX_UTC_OFFSET, MIN_UTC_OFFSET } from '../../domain/utc-offset';
import { IsPositiveIdLike, IsPositiveSafeInt, IsTextOrJson } from './lead-validators';

const TEXT = 255;
const INT32_MIN = -2_147_483_648;
const COMMENT_MAX = 65_535;
/** 9999-12-31T23:59:59Z */
const MAX_UNIX_SECONDS = 253_402_300_799;

class LeadFieldsV1 {
  @ApiPropertyOptional({ description: 'Client name', example: 'Анна Петрова', maxLength: TEXT })
  @Optional()
  @IsString()
  @MaxLength(TEXT)
  client_name?: string;

  @ApiPropertyOptional({
    type: String,
    description: `Questionnaire log: plain text or a JSON string; at most ${COMMENT_MAX} characters`,
    example: '{"rooms":2}',
    maxLength: COMMENT_MAX,
  })
  @Optional()
  @IsTextOrJson(COMMENT_MAX)
  quiz_log?: string | object;

  @ApiPropertyOptional({ description: 'Ad campaign id (v2 adCampaignId)', example: 'spring-2026', maxLength: 64 })
  @Optional()
  @IsString()
  @MaxLength(64, { message: 'campaign_id must be at most 64 characters' })
  campaign_id?: string;

  @ApiPropertyOptional({ description: 'Id in an external system (v2 externalIdCrmA)', example: 'crm-10045', maxLength: TEXT })
  @Optional()
  @IsString()
  @MaxLength(TEXT)
  external_id?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Priority in the call queue', example: 0 })
  @Optional()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  priority?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Client UTC offset in hours', example: 3, minimum: MIN_UTC_OFFSET, maximum: MAX_UTC_OFFSET })
  @Optional()
  @IsInt()
  @Min(MIN_UTC_OFFSET)
  @Max(MAX_UTC_OFFSET)
  utc_offset?: number;

  @ApiPropertyOptional({ type: String, description: 'Social network A user id, > 0 (number or numeric string)', example: '123456789' })
  @Optional()
  @IsPositiveIdLike()
  socialAId?: string | number;

  @ApiPropertyOptional({ description: 'Social network B login', example: 'anna.petrova', maxLength: TEXT })
  @Optional()
  @IsString()
  @MaxLength(TEXT)
  socialBLogin?: string;
}

export class CreateLeadV1Dto extends LeadFieldsV1 {
  @ApiProperty({ enum: LEAD_TYPES })
  @IsIn(LEAD_TYPES)
  lead_type: LeadType;

  @ApiProperty({ description: 'Client phone, E.164 with or without +', example: '79161234567', maxLength: 32 })
  @IsString()
  @Length(1, 32)
  client_phone: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  order_id: number;

  @ApiProperty({ description: 'Code of the same order as order_id', example: 'novostroyki-moskvy', maxLength: 64 })
  @IsString()
  @Length(1, 64)
  order_code: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Messenger user id, > 0', example: 123456789, minimum: 1 })
  @Optional()
  @IsPositiveSafeInt()
  messengerId?: number;
}

export class UpdateLeadV1Dto extends LeadFieldsV1 {
  @ApiPropertyOptional({ description: 'Client phone, E.164 with or without +', example: '79161234567', maxLength: 32 })
  @Optional()
  @IsString()
  @Length(1, 32)
  client_phone?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Lead status id (v2 statusId)', example: 1 })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  status?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Next call time, Unix seconds; sets it as given (no schedule clipping)', example: 1893456000 })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_UNIX_SECONDS)
  call_timestamp?: number;

  @ApiPropertyOptional({ description: 'Messenger username', example: 'anna_petrova', maxLength: TEXT })
  @Optional()
  @IsString()
  @MaxLength(TEXT)
  messengerUserName?: string;

  @ApiPropertyOptional({ description: 'Messenger phone', example: '+79161234567', maxLength: 32 })
  @Optional()
  @IsString()
  @MaxLength(32)
  messengerPhone?: string;
}
