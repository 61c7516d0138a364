import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, Length, Matches } from 'class-validator';
import { Optional } from '../../../../common/presence';
import { LEAD_STATUS_CATEGORIES, LeadStatusCategory, STATUS_CODE } from '../../domain/lead-status';

/** Required on create; on update it may be left out, but never sent as null. */
const presence = (required: boolean, doc: object) => (required ? [ApiProperty(doc)] : [ApiPropertyOptional(doc), Optional()]);

/** The fields of a status catalogue's DTOs: the lead statuses' here, the call statuses' in the calls module. */
export const CodeField = (required: boolean, example?: string) =>
  applyDecorators(
    ...presence(required, { example, pattern: STATUS_CODE.source }),
    IsString(),
    Matches(STATUS_CODE, { message: 'code must be 1..64 characters of a-z, 0-9, - and _' }),
  );

export const TitleField = (required: boolean, example?: string) =>
  applyDecorators(...presence(required, { example, maxLength: 255 }), IsString(), Length(1, 255), Matches(/\S/, { message: 'title must not be blank' }));

export const CategoryField = (required: boolean, categories: readonly string[]) =>
  applyDecorators(...presence(required, { enum: categories }), IsIn(categories));

export const FlagField = (description: string) => applyDecorators(ApiPropertyOptional({ description }), Optional(), IsBoolean());

const DEFAULT_DOC =
  'make it the default status of new leads (must be in-progress); the previous default stops being one. false is refused on the default itself';

export class CreateLeadStatusDto {
  @CodeField(true, 'meeting-booked') code: string;
  @TitleField(true, 'Meeting booked') title: string;
  @CategoryField(true, LEAD_STATUS_CATEGORIES) category: LeadStatusCategory;
  @FlagField(DEFAULT_DOC) isDefault?: boolean;
}

export class UpdateLeadStatusDto {
  @CodeField(false) code?: string;
  @TitleField(false) title?: string;
  @CategoryField(false, LEAD_STATUS_CATEGORIES) category?: LeadStatusCategory;
  @FlagField(DEFAULT_DOC) isDefault?: boolean;
}
