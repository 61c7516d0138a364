import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { INT32_MAX } from './id.pipe';

/** Query strings arrive as strings: an integer is all digits (optional minus), anything else stays invalid. */
export function toInt(value: unknown): unknown {
  // Any run of digits is a number, so 99999999999 fails the range check ("not greater than"), not the type check.
  if (typeof value === 'string' && /^-?[0-9]{1,30}$/.test(value.trim())) return Number(value.trim());
  return value;
}

/**
 * Array query parameters in every common form: `ids[]=1&ids[]=2`, `ids=1&ids=2`, `ids=1,2`
 * (and qs's indexed `ids[0]=1`). Each element is converted like `toInt`.
 */
export function toIntArray(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  const items = Array.isArray(value) ? value : typeof value === 'object' ? Object.values(value) : [value];
  return items.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v])).filter((v) => v !== '').map(toInt);
}

export function toBool(value: unknown): unknown {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
}

export const IntQuery = () => Transform(({ value }) => toInt(value));
export const IntArrayQuery = () => Transform(({ value }) => toIntArray(value));
export const BoolQuery = () => Transform(({ value }) => toBool(value));

/** Positive int32 ids, element-wise. */
export const PositiveIds = () =>
  applyDecorators(IntArrayQuery(), IsOptional(), IsInt({ each: true }), Min(1, { each: true }), Max(INT32_MAX, { each: true }));

/** offset/limit as PRODUCT.md fixes them: offset >= 0, limit 1..100, defaults 0 and 50. */
export class PageQuery {
  @ApiPropertyOptional({ default: 0, minimum: 0 })
  @IntQuery()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(INT32_MAX)
  offset: number = 0;

  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 100 })
  @IntQuery()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 50;
}
