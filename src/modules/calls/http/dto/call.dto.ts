import { whenLeftOut } from '../../../../common/dto-fields';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDate, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
import { Nullable } from '../../../../common/presence';
import { INT32_MAX } from '../../../../common/id.pipe';
import { type DateRange, DateRangeQuery } from '../../../../common/date-range';
import { IdsOrZero, MAX_IDS_PER_FILTER, PageQuery, PositiveIds } from '../../../../common/query';
import { CALL_DIRECTIONS, FINISH_INITIATORS } from '../../domain/call';

const MAX_SECONDS = 7 * 24 * 3600;

/** A finished call as the telephony platform reports it. */
export class RecordCallDto {
  @ApiProperty({ description: "The platform's own call identifier: a retried delivery with the same id stores nothing new", example: 'pbx-2026-11-22-000123' })
  @IsString()
  @Length(1, 128)
  platformCallId: string;

  @ApiProperty({ type: 'integer', example: 1 }) @IsInt() @Min(1) @Max(INT32_MAX) leadId: number;

  @ApiPropertyOptional({ type: 'integer', description: "Must be the lead's order when given (the demo lead 1 is in order 1)", example: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  orderId?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Agent who processed the call; omit or null when none (presented as 0)', example: 3, nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  userId?: number | null;

  @ApiProperty({ type: 'integer', example: 1 }) @IsInt() @Min(1) @Max(INT32_MAX) sipEndpointId: number;
  @ApiProperty({ type: 'integer', example: 2, description: 'Call status id (GET /v2/call-status/)' }) @IsInt() @Min(1) @Max(INT32_MAX) statusId: number;

  @ApiPropertyOptional({ enum: FINISH_INITIATORS, nullable: true })
  @ValidateIf((o: RecordCallDto) => o.finishInitiator !== null && o.finishInitiator !== undefined)
  @IsIn(FINISH_INITIATORS)
  finishInitiator?: 'agent' | 'client' | 'system' | null;

  @ApiProperty({ enum: CALL_DIRECTIONS }) @IsIn(CALL_DIRECTIONS) direction: 'incoming' | 'outgoing';

  @ApiProperty({ type: 'integer', example: 95 }) @IsInt() @Min(0) @Max(MAX_SECONDS) totalDurationSeconds: number;
  @ApiProperty({ type: 'integer', example: 12 }) @IsInt() @Min(0) @Max(MAX_SECONDS) waitTimeDurationSeconds: number;
  @ApiProperty({ type: 'integer', example: 80 }) @IsInt() @Min(0) @Max(MAX_SECONDS) talkTimeDurationSeconds: number;

  @ApiPropertyOptional({ description: whenLeftOut(false) }) @IsOptional() @IsBoolean() isPredictive?: boolean;

  @ApiPropertyOptional({ description: "Digits, with or without +; defaults to the lead's phone", example: '79161234567' })
  @IsOptional()
  @IsString()
  @Matches(/^\+?[0-9]{5,15}$/, { message: 'clientPhone must be 5 to 15 digits, + optional' })
  clientPhone?: string;

  @ApiPropertyOptional({ description: whenLeftOut(false) }) @IsOptional() @IsBoolean() hasRecords?: boolean;

  @ApiPropertyOptional({ description: 'The client asked to be called back (default: the status says so)' })
  @IsOptional()
  @IsBoolean()
  callbackRequested?: boolean;

  @ApiPropertyOptional({
    description:
      "The person asked not to be called: the number called (clientPhone, else the lead's phone) goes on the order's client's do-not-call list (the global list without a client), stopping every lead of it there. " +
      'A re-delivery (same platformCallId) carrying it applies it to the stored call.',
  })
  @IsOptional()
  @IsBoolean()
  optOut?: boolean;

  @ApiPropertyOptional({ description: 'ISO 8601 start of the call (default: now minus the total duration)', example: '2026-11-22T10:00:00Z' })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'startedAt must be an ISO 8601 date-time' })
  startedAt?: Date;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    example: null,
    description:
      "The dialer's claim of the lead (POST /v2/dialer/claim/) this call ends; one that is not the lead's live claim (expired, ended, another lead's): 409. Absent or null: any claim of the lead ends",
  })
  @Nullable()
  @IsUUID('all')
  claimToken?: string | null;
}

export class ListCallsQuery extends PageQuery {
  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    maxItems: MAX_IDS_PER_FILTER,
    description: `Required when orderIds is absent; leadIds[]=1&leadIds[]=2, leadIds=1,2; at most ${MAX_IDS_PER_FILTER}`,
  })
  @PositiveIds()
  leadIds?: number[];

  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    maxItems: MAX_IDS_PER_FILTER,
    example: [1],
    description: `Required when leadIds is absent; at most ${MAX_IDS_PER_FILTER}`,
  })
  @PositiveIds()
  orderIds?: number[];

  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    maxItems: MAX_IDS_PER_FILTER,
    description: `Agents who processed the calls; 0 = no agent (the calls shown with userId 0), e.g. userIds=0,3; at most ${MAX_IDS_PER_FILTER}`,
  })
  @IdsOrZero()
  userIds?: number[];
  @ApiPropertyOptional({ type: 'integer', isArray: true, maxItems: MAX_IDS_PER_FILTER }) @PositiveIds() statusIds?: number[];

  /** createdAt[0] / createdAt[1]: documented on the controller. */
  @DateRangeQuery()
  createdAt?: DateRange;
}
