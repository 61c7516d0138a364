import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsInt, IsOptional, Max, Min } from 'class-validator';
import { parse as parseQuery } from 'qs';
import { COMMON_ERRORS, DomainError } from './domain-error';
import { INT32_MAX } from './id.pipe';

/** Parameters per query string; past it the request is a 400, never silently truncated (PRODUCT.md). */
export const QUERY_PARAMETER_LIMIT = 200;
/**
 * Elements of one array parameter (and the highest index, `ids[199]`). Equal to the parameter
 * limit, so only an explicit index past it can exceed it; the ids filters are capped lower below.
 */
export const QUERY_ARRAY_LIMIT = 200;
/**
 * Ids per filter (`leadIds`, `orderIds`, ...): a page of ids, as `limit` is at most 100. More is a
 * batch lookup, which the lists are not for: send several requests.
 */
export const MAX_IDS_PER_FILTER = 100;

/** qs's own limit errors, as the 400 they are. */
function queryLimitError(err: unknown): DomainError | null {
  if (!(err instanceof RangeError)) return null;
  if (/parameter limit/i.test(err.message)) {
    return DomainError.invalidField('query', `must have at most ${QUERY_PARAMETER_LIMIT} parameters`, COMMON_ERRORS.QUERY_TOO_LONG);
  }
  if (/array limit/i.test(err.message)) {
    return DomainError.invalidField(
      'query',
      `array parameters take at most ${QUERY_ARRAY_LIMIT} elements (indexes 0..${QUERY_ARRAY_LIMIT - 1})`,
      COMMON_ERRORS.QUERY_TOO_LONG,
    );
  }
  return null;
}

/**
 * qs reads `ids[]=1` and `createdAt[0]=...`, bounded so hostile query strings stay cheap (past the bounds: a validation error,
 * raised after authentication). An indexed array with gaps becomes an object keyed by index, as ValidationPipe would close the
 * gap and turn a lone end bound into a start; nothing is filtered by position (`createdAt[0]=&createdAt[1]=X` keeps X as [1]).
 */
export function parseQueryString(q: string): Record<string, unknown> {
  let parsed: Record<string, unknown>;
  try {
    parsed = parseQuery(q, { arrayLimit: QUERY_ARRAY_LIMIT, depth: 2, parameterLimit: QUERY_PARAMETER_LIMIT, allowSparse: true, throwOnLimitExceeded: true });
  } catch (err) {
    throw queryLimitError(err) ?? err;
  }
  for (const [key, value] of Object.entries(parsed)) {
    // An empty parameter (`limit=`, `isActive=`, `ids[]=`), as form-built query strings send
    // them, is the same as an absent one, on every endpoint.
    if (value === '' || (Array.isArray(value) && value.length > 0 && value.every((v) => v === ''))) delete parsed[key];
    else if (Array.isArray(value) && Object.keys(value).length !== value.length) parsed[key] = { ...value };
  }
  return parsed;
}

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
  const items: unknown[] = Array.isArray(value) ? value : typeof value === 'object' ? Object.values(value) : [value];
  return items
    .flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]))
    .filter((v) => v !== '')
    .map(toInt);
}

export function toBool(value: unknown): unknown {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
}

export const IntQuery = () => Transform(({ value }) => toInt(value));
export const IntArrayQuery = () => Transform(({ value }) => toIntArray(value));
export const BoolQuery = () => Transform(({ value }) => toBool(value));

/** An optional positive int32 id of the query (`?orderId=12`); `doc` adds to its OpenAPI description. */
export const OptionalIdQuery = (doc: { description?: string; example?: number } = {}) =>
  applyDecorators(ApiPropertyOptional({ type: 'integer', minimum: 1, ...doc }), IntQuery(), IsOptional(), IsInt(), Min(1), Max(INT32_MAX));

/** int32 ids from `min` up, element-wise; at most MAX_IDS_PER_FILTER of them (after splitting `ids=1,2`). */
const IdsFrom = (min: number) =>
  applyDecorators(
    IntArrayQuery(),
    IsOptional(),
    ArrayMaxSize(MAX_IDS_PER_FILTER, { message: `$property must have at most ${MAX_IDS_PER_FILTER} ids (send several requests for more)` }),
    IsInt({ each: true }),
    Min(min, { each: true }),
    Max(INT32_MAX, { each: true }),
  );

/** Positive int32 ids, element-wise; at most MAX_IDS_PER_FILTER of them (after splitting `ids=1,2`). */
export const PositiveIds = () => IdsFrom(1);

/** PositiveIds with 0 allowed too, for a filter where 0 stands for "none" (a call no agent processed). */
export const IdsOrZero = () => IdsFrom(0);

/** offset/limit as PRODUCT.md fixes them: offset >= 0, limit 1..100, defaults 0 and 50. */
export class PageQuery {
  @ApiPropertyOptional({ type: 'integer', default: 0, minimum: 0, example: 0 })
  @IntQuery()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(INT32_MAX)
  offset: number = 0;

  @ApiPropertyOptional({ type: 'integer', default: 50, minimum: 1, maximum: 100, example: 50 })
  @IntQuery()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 50;
}
