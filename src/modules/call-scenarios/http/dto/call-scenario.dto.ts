import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, Matches } from 'class-validator';
import { OptionalFlag, OptionalText, whenLeftOut } from '../../../../common/dto-fields';
import { Optional } from '../../../../common/presence';
import { BoolQuery, PageQuery } from '../../../../common/query';
import { MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH } from '../../domain/call-scenario';

const NOT_BLANK = /\S/;

export class CreateCallScenarioDto {
  @ApiProperty({ example: 'Квалификация лида', maxLength: MAX_TITLE_LENGTH })
  @IsString()
  @Length(1, MAX_TITLE_LENGTH)
  @Matches(NOT_BLANK, { message: 'title must not be blank' })
  title: string;

  @ApiPropertyOptional({ maxLength: MAX_DESCRIPTION_LENGTH, description: whenLeftOut('') })
  @OptionalText(MAX_DESCRIPTION_LENGTH)
  description?: string;

  @ApiPropertyOptional({ description: whenLeftOut(true) })
  @OptionalFlag()
  isActive?: boolean;
}

export class UpdateCallScenarioDto {
  @ApiPropertyOptional({ example: 'Квалификация лида', maxLength: MAX_TITLE_LENGTH })
  @Optional()
  @IsString()
  @Length(1, MAX_TITLE_LENGTH)
  @Matches(NOT_BLANK, { message: 'title must not be blank' })
  title?: string;

  @ApiPropertyOptional({ maxLength: MAX_DESCRIPTION_LENGTH, description: "'' clears it" })
  @OptionalText(MAX_DESCRIPTION_LENGTH)
  description?: string;

  @ApiPropertyOptional()
  @OptionalFlag()
  isActive?: boolean;
}

export class CallScenarioListQuery extends PageQuery {
  @ApiPropertyOptional({ type: Boolean, description: 'true/false or 1/0' })
  @BoolQuery()
  @IsOptional()
  @IsBoolean()
  isActive?: boolean;
}
