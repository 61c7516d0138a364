import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';
import { INT32_MAX } from '../../../../common/id.pipe';
import { Optional } from '../../../../common/presence';
import { OptionalIdQuery, PageQuery } from '../../../../common/query';
import { CLAIM_LIMITS as L } from '../../domain/claim';

const DIALER_ID = {
  minLength: 1,
  maxLength: L.dialerIdLength,
  example: 'dialer-eu-1',
  description: 'the dialer node claiming (its claims are listed under it)',
};

export class ClaimDto {
  @ApiProperty(DIALER_ID)
  @IsString()
  @Length(1, L.dialerIdLength)
  dialerId: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: L.maxLimit, example: 50, description: 'at most this many leads' })
  @IsInt()
  @Min(1)
  @Max(L.maxLimit)
  limit: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: L.minLeaseSeconds,
    maximum: L.maxLeaseSeconds,
    example: 120,
    description: `the lease; left out: ${L.defaultLeaseSeconds} seconds`,
  })
  @Optional()
  @IsInt()
  @Min(L.minLeaseSeconds)
  @Max(L.maxLeaseSeconds)
  leaseSeconds?: number;

  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    minItems: 1,
    maxItems: L.maxOrderIds,
    example: [1, 2],
    description: 'the orders to claim from (each must exist: else 400); absent: every order whose autodialing is on',
  })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(L.maxOrderIds)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(INT32_MAX, { each: true })
  orderIds?: number[];
}

export class ClaimTokensDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: L.maxTokens,
    example: ['3f0c2a8e-4b1d-4c9a-9f7e-2d1b0a6c5e4f'],
    description: 'claim tokens a claim answered',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(L.maxTokens)
  @IsUUID('all', { each: true })
  claimTokens: string[];
}

export class ReleaseDto extends ClaimTokensDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: L.maxRetryAfterSeconds,
    example: 300,
    description:
      "absent: the leads are due again at once; else wanted not before this many seconds from now (the call goes to the first moment of the lead's window then)",
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(L.maxRetryAfterSeconds)
  retryAfterSeconds?: number;
}

export class ClaimListQuery extends PageQuery {
  @OptionalIdQuery()
  orderId?: number;

  @ApiPropertyOptional(DIALER_ID)
  @IsOptional()
  @IsString()
  @Length(1, L.dialerIdLength)
  dialerId?: string;
}
