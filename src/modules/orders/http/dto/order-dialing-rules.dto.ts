import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { Nullable, Optional } from '../../../../common/presence';

const MAX_ATTEMPTS_PER_DAY = 50;

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
}
