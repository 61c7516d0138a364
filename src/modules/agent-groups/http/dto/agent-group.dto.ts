import { whenLeftOut } from '../../../../common/dto-fields';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsObject, IsString, Length, Matches, Max, Min, ValidateNested } from 'class-validator';
import { INT32_MAX } from '../../../../common/id.pipe';
import { Optional } from '../../../../common/presence';
import { OptionalIdQuery, PageQuery } from '../../../../common/query';
import { MAX_AGENTS_PER_GROUP, MAX_NAME_LENGTH } from '../../domain/agent-group';

const NOT_BLANK = /\S/;

export class AgentGroupNamesDto {
  @ApiProperty({ example: 'Продажи', maxLength: MAX_NAME_LENGTH, description: 'Russian name' })
  @IsString()
  @Length(1, MAX_NAME_LENGTH)
  @Matches(NOT_BLANK, { message: 'ru must not be blank' })
  ru: string;

  @ApiProperty({ example: 'Sales', maxLength: MAX_NAME_LENGTH, description: 'English name' })
  @IsString()
  @Length(1, MAX_NAME_LENGTH)
  @Matches(NOT_BLANK, { message: 'gb must not be blank' })
  gb: string;
}

/** On update each language is optional: the ones sent replace theirs. */
export class AgentGroupNamesPatchDto {
  @ApiPropertyOptional({ example: 'Продажи', maxLength: MAX_NAME_LENGTH })
  @Optional()
  @IsString()
  @Length(1, MAX_NAME_LENGTH)
  @Matches(NOT_BLANK, { message: 'ru must not be blank' })
  ru?: string;

  @ApiPropertyOptional({ example: 'Sales', maxLength: MAX_NAME_LENGTH })
  @Optional()
  @IsString()
  @Length(1, MAX_NAME_LENGTH)
  @Matches(NOT_BLANK, { message: 'gb must not be blank' })
  gb?: string;
}

const AgentIds = () =>
  applyDecorators(IsArray(), ArrayMaxSize(MAX_AGENTS_PER_GROUP), IsInt({ each: true }), Min(1, { each: true }), Max(INT32_MAX, { each: true }));

export class CreateAgentGroupDto {
  @ApiProperty({ type: AgentGroupNamesDto })
  @IsObject()
  @ValidateNested()
  @Type(() => AgentGroupNamesDto)
  names: AgentGroupNamesDto;

  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    maxItems: MAX_AGENTS_PER_GROUP,
    example: [3, 4, 5],
    description: whenLeftOut([], `user ids; all must exist; duplicates collapse; at most ${MAX_AGENTS_PER_GROUP}`),
  })
  @Optional()
  @AgentIds()
  agentIds?: number[];
}

export class UpdateAgentGroupDto {
  @ApiPropertyOptional({ type: AgentGroupNamesPatchDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => AgentGroupNamesPatchDto)
  names?: AgentGroupNamesPatchDto;

  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    maxItems: MAX_AGENTS_PER_GROUP,
    example: [3, 4, 5],
    description: `replaces the membership; all must exist; at most ${MAX_AGENTS_PER_GROUP}`,
  })
  @Optional()
  @AgentIds()
  agentIds?: number[];
}

export class AgentGroupListQuery extends PageQuery {
  @OptionalIdQuery({ description: 'only groups containing this agent (user id)' })
  agentId?: number;
}
