import { ApiProperty } from '@nestjs/swagger';
import { ArrayNotEmpty, IsArray, IsIn, IsString, Length } from 'class-validator';
import { SCOPES, type Scope } from '../../../../common/auth-context';

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
}
