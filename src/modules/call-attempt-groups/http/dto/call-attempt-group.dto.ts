import { whenLeftOut } from '../../../../common/dto-fields';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsString, Length, Matches, Max, Min } from 'class-validator';
import { Optional } from '../../../../common/presence';
import { MAX_INTERVALS, MAX_INTERVAL_MINUTES, MAX_TITLE_LENGTH } from '../../domain/call-attempt-group';

const NOT_BLANK = /\S/;

const Title = () => applyDecorators(IsString(), Length(1, MAX_TITLE_LENGTH), Matches(NOT_BLANK, { message: 'title must not be blank' }));
const Intervals = () =>
  applyDecorators(IsArray(), ArrayMaxSize(MAX_INTERVALS), IsInt({ each: true }), Min(1, { each: true }), Max(MAX_INTERVAL_MINUTES, { each: true }));

const INTERVALS_DOC = `minutes to wait after each unanswered attempt, in order; each 1..${MAX_INTERVAL_MINUTES}, at most ${MAX_INTERVALS} items; [] = a single attempt`;

export class CreateCallAttemptGroupDto {
  @ApiProperty({ example: 'Стандартный дозвон', maxLength: MAX_TITLE_LENGTH })
  @Title()
  title: string;

  @ApiProperty({ type: 'integer', isArray: true, maxItems: MAX_INTERVALS, example: [5, 30, 120, 1440], description: INTERVALS_DOC })
  @Intervals()
  intervals: number[];

  @ApiPropertyOptional({ description: whenLeftOut(false, 'true takes the default over from the current default group; the first group is always the default') })
  @Optional()
  @IsBoolean()
  isDefault?: boolean;

  @ApiPropertyOptional({ description: whenLeftOut(false, 'reset attempts when the customer asks to call back') })
  @Optional()
  @IsBoolean()
  resetAttemptsEnabled?: boolean;

  @ApiPropertyOptional({ description: whenLeftOut(false, 'past the end of intervals keep repeating the last one (false: stop dialing)') })
  @Optional()
  @IsBoolean()
  repeatLastInterval?: boolean;
}

/** API.md "POST /v2/call-attempt/update/{id}/": every field optional. */
export class UpdateCallAttemptGroupDto {
  @ApiPropertyOptional({ example: 'Стандартный дозвон', maxLength: MAX_TITLE_LENGTH })
  @Optional()
  @Title()
  title?: string;

  @ApiPropertyOptional({ type: 'integer', isArray: true, maxItems: MAX_INTERVALS, example: [5, 30, 120, 1440], description: INTERVALS_DOC })
  @Optional()
  @Intervals()
  intervals?: number[];

  @ApiPropertyOptional({
    description: 'true makes this group the default (the previous default is cleared in the same transaction); false on the default group is a 400',
  })
  @Optional()
  @IsBoolean()
  isDefault?: boolean;

  @ApiPropertyOptional({ description: 'reset attempts when the customer asks to call back' })
  @Optional()
  @IsBoolean()
  resetAttemptsEnabled?: boolean;

  @ApiPropertyOptional({ description: 'past the end of intervals keep repeating the last one (false: stop dialing)' })
  @Optional()
  @IsBoolean()
  repeatLastInterval?: boolean;
}
