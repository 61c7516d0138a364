import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { whenLeftOut } from '../../../common/dto-fields';
import { Nullable, Optional } from '../../../common/presence';
import { type OrderRedialRule, REDIAL_LIMITS, type RedialRule } from '../domain/redial-rule';

const AFTER_DOC = "minutes to wait after a call ending in this status, instead of the attempt group's interval for that attempt; null: the group's";
const MAX_DOC = 'the lead stops after this many calls ending in this status; null: no such cap';
const FINAL_DOC = "a call ending in this status stops the lead's dialling";

/** A redial rule as sent: the whole rule (a field left out is null, `final` false). */
export class RedialRuleDto {
  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0, maximum: REDIAL_LIMITS.maxAfterMinutes, example: 15, description: AFTER_DOC })
  @Nullable()
  @IsInt()
  @Min(0)
  @Max(REDIAL_LIMITS.maxAfterMinutes)
  afterMinutes?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 1, maximum: REDIAL_LIMITS.maxAttempts, example: 3, description: MAX_DOC })
  @Nullable()
  @IsInt()
  @Min(1)
  @Max(REDIAL_LIMITS.maxAttempts)
  maxAttempts?: number | null;

  @ApiPropertyOptional({ type: Boolean, description: whenLeftOut(false, FINAL_DOC) })
  @Optional()
  @IsBoolean()
  final?: boolean;
}

/** An order's rule for one call status. */
export class OrderRedialRuleDto extends RedialRuleDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 3, description: 'the call status (GET /v2/call-status) the rule applies to' })
  @IsInt()
  @Min(1)
  statusId: number;
}

/** A rule as sent, made whole. */
export function redialRuleOf(dto: RedialRuleDto): RedialRule {
  return { afterMinutes: dto.afterMinutes ?? null, maxAttempts: dto.maxAttempts ?? null, final: dto.final ?? false };
}

/** An order's rules as sent, made whole (undefined stays undefined: not sent). */
export function orderRedialRulesOf(dtos: OrderRedialRuleDto[] | undefined): OrderRedialRule[] | undefined {
  return dtos?.map((r) => ({ statusId: r.statusId, ...redialRuleOf(r) }));
}

/** A redial rule as answered. */
export class RedialRuleView {
  @ApiProperty({ type: 'integer', nullable: true, example: 15, description: AFTER_DOC }) afterMinutes: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: null, description: MAX_DOC }) maxAttempts: number | null;
  @ApiProperty({ description: FINAL_DOC }) final: boolean;
}

export class OrderRedialRuleView extends RedialRuleView {
  @ApiProperty({ type: 'integer', example: 3 }) statusId: number;
}
