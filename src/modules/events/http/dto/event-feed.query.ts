import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IntQuery, MAX_IDS_PER_FILTER, PositiveIds } from '../../../../common/query';
import { EVENT_TYPES, EventType } from '../../domain/event';

export const FEED_LIMIT_MAX = 1000;
export const FEED_LIMIT_DEFAULT = 100;

/** `types[]=a&types[]=b`, `types=a&types=b`, `types=a,b`: one list of strings. */
function toStringArray(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  const items: unknown[] = Array.isArray(value) ? value : typeof value === 'object' ? Object.values(value) : [value];
  return items.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v])).filter((v) => v !== '');
}

/** GET /v2/event/: the position to continue after, a page size, and optional filters. */
export class EventFeedQuery {
  @ApiPropertyOptional({ type: 'integer', default: 0, minimum: 0, description: 'the `next` of the previous page; 0 (default): from the oldest retained event' })
  @IntQuery()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  after: number = 0;

  @ApiPropertyOptional({ type: 'integer', default: FEED_LIMIT_DEFAULT, minimum: 1, maximum: FEED_LIMIT_MAX })
  @IntQuery()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(FEED_LIMIT_MAX)
  limit: number = FEED_LIMIT_DEFAULT;

  @ApiPropertyOptional({ enum: EVENT_TYPES, isArray: true, description: 'only these types; types[]=lead.created&types[]=lead.updated or types=a,b' })
  @Transform(({ value }) => toStringArray(value))
  @IsOptional()
  @ArrayMaxSize(EVENT_TYPES.length * 2)
  @IsIn(EVENT_TYPES, { each: true, message: `each value in types must be one of: ${EVENT_TYPES.join(', ')}` })
  types?: EventType[];

  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    maxItems: MAX_IDS_PER_FILTER,
    description: `only events of these orders; at most ${MAX_IDS_PER_FILTER}`,
  })
  @PositiveIds()
  orderIds?: number[];
}
