import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, Max, Min, ValidateNested } from 'class-validator';
import { whenLeftOut } from '../../../../common/dto-fields';
import { Nullable, Optional } from '../../../../common/presence';
import { OrderRedialRuleDto } from '../../../dialing/http/redial-rule.dto';

const MAX_ATTEMPTS_PER_DAY = 50;
const MAX_REDIAL_RULES = 100;
const MAX_DIAL_WEIGHT = 100;

/** Order fields that decide which leads are dialled and how often (create and update). */
export class OrderDialingRulesDto {
  @ApiPropertyOptional({ type: Boolean, description: 'leads without consent are not dialled (default false)' })
  @Optional()
  @IsBoolean()
  consentRequired?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_ATTEMPTS_PER_DAY,
    example: 3,
    description: "calls per lead per local day; once reached, the lead's next call waits for its next local day; null = no cap (default)",
  })
  @Nullable()
  @IsInt()
  @Min(1)
  @Max(MAX_ATTEMPTS_PER_DAY)
  maxAttemptsPerDay?: number | null;

  @ApiPropertyOptional({
    type: OrderRedialRuleDto,
    isArray: true,
    maxItems: MAX_REDIAL_RULES,
    description: whenLeftOut([], "redial rules per call status (one per statusId), over the statuses' own; the list replaces the stored one"),
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_REDIAL_RULES)
  @ValidateNested({ each: true })
  @Type(() => OrderRedialRuleDto)
  redialRules?: OrderRedialRuleDto[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_DIAL_WEIGHT,
    example: 2,
    description: whenLeftOut(1, "the order's share of a dialer claim across orders, relative to the other orders' weights"),
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_DIAL_WEIGHT)
  dialWeight?: number;
}
