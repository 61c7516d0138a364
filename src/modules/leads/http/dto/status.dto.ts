import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, Length, Matches } from 'class-validator';
import { Optional } from '../../../../common/presence';
import {
  CALL_STATUS_CATEGORIES,
  CallStatusCategory,
  LEAD_STATUS_CATEGORIES,
  LeadStatusCategory,
  STATUS_CODE,
} from '../../domain/lead-status';

const NOT_BLANK = /\S/;
const CODE_MESSAGE = { message: 'code must be 1..64 characters of a-z, 0-9, - and _' };

export class CreateLeadStatusDto {
  @ApiProperty({ example: 'meeting-booked', pattern: STATUS_CODE.source })
  @IsString()
  @Matches(STATUS_CODE, CODE_MESSAGE)
  code: string;

  @ApiProperty({ example: 'Meeting booked', maxLength: 255 })
  @IsString()
  @Length(1, 255)
  @Matches(NOT_BLANK, { message: 'title must not be blank' })
  title: string;

  @ApiProperty({ enum: LEAD_STATUS_CATEGORIES })
  @IsIn(LEAD_STATUS_CATEGORIES)
  category: LeadStatusCategory;

  @ApiPropertyOptional({ default: false, description: 'make it the default status of new leads (must be in-progress); the previous default stops being one' })
  @Optional()
  @IsBoolean()
  isDefault?: boolean;
}

export class UpdateLeadStatusDto {
  @ApiPropertyOptional({ pattern: STATUS_CODE.source })
  @Optional()
  @IsString()
  @Matches(STATUS_CODE, CODE_MESSAGE)
  code?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @Optional()
  @IsString()
  @Length(1, 255)
  @Matches(NOT_BLANK, { message: 'title must not be blank' })
  title?: string;

  @ApiPropertyOptional({ enum: LEAD_STATUS_CATEGORIES })
  @Optional()
  @IsIn(LEAD_STATUS_CATEGORIES)
  category?: LeadStatusCategory;

  @ApiPropertyOptional({ description: 'true makes it the default (the previous default stops being one); false is refused on the default itself' })
  @Optional()
  @IsBoolean()
  isDefault?: boolean;
}

export class CreateCallStatusDto {
  @ApiProperty({ example: 'answering-machine', pattern: STATUS_CODE.source })
  @IsString()
  @Matches(STATUS_CODE, CODE_MESSAGE)
  code: string;

  @ApiProperty({ example: 'Answering machine', maxLength: 255 })
  @IsString()
  @Length(1, 255)
  @Matches(NOT_BLANK, { message: 'title must not be blank' })
  title: string;

  @ApiProperty({ enum: CALL_STATUS_CATEGORIES })
  @IsIn(CALL_STATUS_CATEGORIES)
  category: CallStatusCategory;

  @ApiPropertyOptional({ default: false, description: 'the customer asked to be called back (may reset the attempt count)' })
  @Optional()
  @IsBoolean()
  isCallback?: boolean;
}

export class UpdateCallStatusDto {
  @ApiPropertyOptional({ pattern: STATUS_CODE.source })
  @Optional()
  @IsString()
  @Matches(STATUS_CODE, CODE_MESSAGE)
  code?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @Optional()
  @IsString()
  @Length(1, 255)
  @Matches(NOT_BLANK, { message: 'title must not be blank' })
  title?: string;

  @ApiPropertyOptional({ enum: CALL_STATUS_CATEGORIES })
  @Optional()
  @IsIn(CALL_STATUS_CATEGORIES)
  category?: CallStatusCategory;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  isCallback?: boolean;
}
