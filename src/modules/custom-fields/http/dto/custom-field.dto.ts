import { whenLeftOut } from '../../../../common/dto-fields';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { INT32_MAX } from '../../../../common/id.pipe';
import { Optional } from '../../../../common/presence';
import { CUSTOM_FIELD_TYPES, type CustomFieldType, ESSENCES, type Essence } from '../../domain/custom-value';

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

  @ApiPropertyOptional({ type: 'integer', example: 10, description: whenLeftOut(100) })
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

  @ApiProperty({ enum: CUSTOM_FIELD_TYPES, example: 'select', description: 'select and multiselect take params (options); the others do not' })
  @IsIn(CUSTOM_FIELD_TYPES)
  type: CustomFieldType;

  @ApiProperty({ enum: ESSENCES, example: 'leads' })
  @IsIn(ESSENCES)
  essence: Essence;

  @ApiPropertyOptional({ type: 'integer', example: 100, description: whenLeftOut(100, 'fields are listed by sort, then id') })
  @Optional()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  sort?: number;

  @ApiPropertyOptional({
    type: [CustomFieldOptionDto],
    maxItems: MAX_OPTIONS,
    description: `options: required and non-empty for select and multiselect; absent or [] for other types; at most ${MAX_OPTIONS}`,
    example: [
      { code: 'flat', title: 'Квартира', sort: 10 },
      { code: 'house', title: 'Дом', sort: 20 },
    ],
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
  @ApiPropertyOptional({ example: 'Интерес', maxLength: 255 })
  @Optional()
  @IsString()
  @Length(1, 255)
  title?: string;

  @ApiPropertyOptional({ type: 'integer', example: 70 })
  @Optional()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  sort?: number;

  @ApiPropertyOptional({ enum: CUSTOM_FIELD_TYPES, example: 'select', description: 'immutable: accepted only when equal to the current type, else 400' })
  @Optional()
  @IsIn(CUSTOM_FIELD_TYPES)
  type?: CustomFieldType;

  @ApiPropertyOptional({ enum: ESSENCES, example: 'leads', description: 'immutable: accepted only when equal to the current essence, else 400' })
  @Optional()
  @IsIn(ESSENCES)
  essence?: Essence;

  @ApiPropertyOptional({
    type: [CustomFieldOptionDto],
    maxItems: MAX_OPTIONS,
    description: `replaces the options (matched by code); select and multiselect only, non-empty; at most ${MAX_OPTIONS}`,
    // The demo's select field 7 (Интерес) with its own options.
    example: [
      { code: 'flat', title: 'Квартира', sort: 10 },
      { code: 'house', title: 'Дом', sort: 20 },
      { code: 'course', title: 'Курс', sort: 30 },
      { code: 'consultation', title: 'Консультация', sort: 40 },
    ],
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_OPTIONS)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CustomFieldOptionDto)
  params?: CustomFieldOptionDto[];
}
