import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsOptional, IsString, Length, Matches } from 'class-validator';
import { MaxKeys } from '../../../../common/validation';
import { LANGUAGE_INPUT_CODES } from '../../domain/order';

/** One number of an order's transferNumbers. */
export class TransferNumberDto {
  @ApiProperty({ example: '+74951234500', maxLength: 32, description: 'phone number or extension, no spaces' })
  @IsString()
  @Length(1, 32)
  @Matches(/^\S+$/, { message: 'must not contain spaces' })
  number: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    maxProperties: LANGUAGE_INPUT_CODES.length,
    example: { ru: 'Отдел продаж', gb: 'Sales department' },
    description: `language code (${LANGUAGE_INPUT_CODES.join(', ')}; en is stored as gb) to name`,
  })
  @IsOptional()
  @Allow()
  @MaxKeys(LANGUAGE_INPUT_CODES.length, 'names (one per language)')
  names?: unknown;
}
