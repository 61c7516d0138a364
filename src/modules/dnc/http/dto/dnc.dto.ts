import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsISO8601, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { OptionalText } from '../../../../common/dto-fields';
import { INT32_MAX } from '../../../../common/id.pipe';
import { OptionalIdQuery, PageQuery } from '../../../../common/query';
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

/** A date-time that ends in its UTC offset: without one it would be read in the server's own time zone. */
const WITH_UTC_OFFSET = /[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

export class DncAddDto extends DncRemoveDto {
  @ApiPropertyOptional({
    format: 'date-time',
    example: '2030-01-01T00:00:00+00:00',
    description: 'In the future, with its UTC offset (Z or ±hh:mm; without one: 400); absent: never expires',
  })
  @IsOptional()
  @IsString()
  @IsISO8601({ strict: true })
  @Matches(WITH_UTC_OFFSET, { message: 'must be an ISO 8601 date-time with a UTC offset (Z or ±hh:mm), e.g. 2030-01-01T00:00:00+00:00' })
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

  @OptionalIdQuery()
  orderId?: number;

  @OptionalIdQuery()
  clientId?: number;

  @ApiPropertyOptional({ enum: DNC_SCOPES })
  @IsOptional()
  @IsIn(DNC_SCOPES)
  scope?: DncScope;
}
