import { whenLeftOut } from '../../../../common/dto-fields';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { Optional } from '../../../../common/presence';
import { BoolQuery, PageQuery } from '../../../../common/query';
import { MAX_NUMBER_INPUT_LENGTH, MAX_TITLE_LENGTH } from '../../domain/sip-endpoint';

const NOT_BLANK = /\S/;

export class CreateSipEndpointDto {
  @ApiProperty({ example: '+74957654321', description: 'international number, with or without +; stored as E.164 with +; unique (409 when it exists)' })
  @IsString()
  @MaxLength(MAX_NUMBER_INPUT_LENGTH)
  number: string;

  @ApiProperty({ example: 'Москва, основной', maxLength: MAX_TITLE_LENGTH })
  @IsString()
  @Length(1, MAX_TITLE_LENGTH)
  @Matches(NOT_BLANK, { message: 'title must not be blank' })
  title: string;

  @ApiPropertyOptional({ description: whenLeftOut(true) })
  @Optional()
  @IsBoolean()
  isActive?: boolean;
}

export class UpdateSipEndpointDto {
  @ApiPropertyOptional({
    example: '+74951234567',
    description: 'international number, with or without +; unique (409 when another endpoint has it); the example is the demo endpoint 1 number',
  })
  @Optional()
  @IsString()
  @MaxLength(MAX_NUMBER_INPUT_LENGTH)
  number?: string;

  @ApiPropertyOptional({ example: 'Москва, основной', maxLength: MAX_TITLE_LENGTH })
  @Optional()
  @IsString()
  @Length(1, MAX_TITLE_LENGTH)
  @Matches(NOT_BLANK, { message: 'title must not be blank' })
  title?: string;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  isActive?: boolean;
}

export class SipEndpointListQuery extends PageQuery {
  @ApiPropertyOptional({ type: Boolean, description: 'true/false or 1/0' })
  @BoolQuery()
  @IsOptional()
  @IsBoolean()
  isActive?: boolean;
}
