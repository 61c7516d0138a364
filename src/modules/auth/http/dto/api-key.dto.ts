import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayNotEmpty, IsArray, IsIn, IsInt, IsString, Length, Max, Min } from 'class-validator';
import { SCOPES, type Scope } from '../../../../common/auth-context';
import { INT32_MAX } from '../../../../common/id.pipe';
import { Nullable } from '../../../../common/presence';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'crm-integration' })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ enum: SCOPES, isArray: true, example: ['api'] })
  @IsArray()
  @ArrayNotEmpty()
  @IsIn(SCOPES, { each: true })
  scopes: Scope[];

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    example: 1,
    description:
      "a client key: it reaches only this client's orders and what lies under them; scopes must be exactly api; the client must exist. " +
      'Absent or null: an unrestricted key',
  })
  @Nullable()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  clientId?: number | null;
}
