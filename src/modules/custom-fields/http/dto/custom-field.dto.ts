import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { INT32_MAX } from '../../../../common/id.pipe';
import { Optional } from '../../../../common/presence';
import { CUSTOM_FIELD_TYPES, CustomFieldType, ESSENCES, Essence } from '../../domain/custom-value';

const INT32_MIN = -INT32_MAX - 1;
const MAX_OPTIONS = 500;

export class CustomFieldListQuery {
  @ApiPropertyOptional({ enum: ESSENCES, description: 'only fields of this entity' })
  @IsOptional()
  @IsIn(ESSENCES)
  essence?: Essence;
}

export class CustomFieldOptionDto {
  @ApiProperty({ example: 'flat', maxLength: 64, description: 'a-z, 0-9, _ and -, 1..64 characters; unique within the field' })
  @IsString()
  code: string;

  @ApiProperty({ example: 'Квартира', maxLength: 255 })
  @IsString()
  @Length(1, 255)
  title: string;

  @ApiPropertyOptional({ example: 10, default: 100 })
  @Optional()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  sort?: number;
}

export class CreateCustomFieldDto {
  @ApiProperty({ example: 'Тип недвижимости', maxLength: 255 })
  @IsString()
  @Length(1, 255)
  title: string;

  @ApiProperty({ enum: CUSTOM_FIELD_TYPES })
  @IsIn(CUSTOM_FIELD_TYPES)
  type: CustomFieldType;

  @ApiProperty({ enum: ESSENCES })
  @IsIn(ESSENCES)
  essence: Essence;

  @ApiPropertyOptional({ default: 100, description: 'fields are listed by sort, then id' })
  @Optional()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  sort?: number;

  @ApiPropertyOptional({
    type: [CustomFieldOptionDto],
    maxItems: MAX_OPTIONS,
    description: `options: required and non-empty for select and multiselect; absent or [] for other types; at most ${MAX_OPTIONS}`,
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_OPTIONS)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CustomFieldOptionDto)
  params?: CustomFieldOptionDto[];
}

export class UpdateCustomFieldDto {
  @ApiPropertyOptional({ example: 'Тип недвижимости', maxLength: 255 })
  @Optional()
  @IsString()
  @Length(1, 255)
  title?: string;

  @ApiPropertyOptional()
  @Optional()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  sort?: number;

  @ApiPropertyOptional({ enum: CUSTOM_FIELD_TYPES, description: 'immutable: accepted only when equal to the current type, else 400' })
  @Optional()
  @IsIn(CUSTOM_FIELD_TYPES)
  type?: CustomFieldType;

  @ApiPropertyOptional({ enum: ESSENCES, description: 'immutable: accepted only when equal to the current essence, else 400' })
  @Optional()
  @IsIn(ESSENCES)
  essence?: Essence;

  @ApiPropertyOptional({
    type: [CustomFieldOptionDto],
    maxItems: MAX_OPTIONS,
    description: `replaces the options (matched by code); select and multiselect only, non-empty; at most ${MAX_OPTIONS}`,
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_OPTIONS)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CustomFieldOptionDto)
  params?: CustomFieldOptionDto[];
}
