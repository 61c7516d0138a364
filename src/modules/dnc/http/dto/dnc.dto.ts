import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, Min } from 'class-validator';
import { OptionalText } from '../../../../common/dto-fields';
import { INT32_MAX } from '../../../../common/id.pipe';
import { IntQuery, PageQuery } from '../../../../common/query';
import { DNC_SCOPES, type DncScope, MAX_DNC_PHONES, MAX_DNC_REASON_LENGTH } from '../../domain/dnc-entry';

const ORDER_ID = 'The order whose list it is (every lead of the order)';
const CLIENT_ID = "The client whose list it is (every order of the client); neither: a client key's own client, else the global list";

/** Which list: orderId or clientId (both: 400). */
export class DncListRefDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, example: 1, description: ORDER_ID })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  orderId?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: CLIENT_ID })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  clientId?: number;
}

export class DncRemoveDto extends DncListRefDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_DNC_PHONES,
    example: ['+79161234567'],
    description: "Numbers in any format a lead's phone accepts (one invalid: 400 naming phones[i], nothing changes)",
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_DNC_PHONES)
  phones: unknown[];
}

export class DncAddDto extends DncRemoveDto {
  @ApiPropertyOptional({ format: 'date-time', example: '2030-01-01T00:00:00+00:00', description: 'In the future; absent: never expires' })
  @IsOptional()
  @IsString()
  @IsISO8601({ strict: true })
  expiresAt?: string;

  @ApiPropertyOptional({ maxLength: MAX_DNC_REASON_LENGTH, example: 'asked not to be called' })
  @OptionalText(MAX_DNC_REASON_LENGTH)
  reason?: string;
}

export class DncListQuery extends PageQuery {
  @ApiPropertyOptional({ example: '+79161234567', description: "A number in any format a lead's phone accepts" })
  @IsOptional()
  @IsString()
  phone?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  @IntQuery()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  orderId?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  @IntQuery()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  clientId?: number;

  @ApiPropertyOptional({ enum: DNC_SCOPES })
  @IsOptional()
  @IsIn(DNC_SCOPES)
  scope?: DncScope;
}
