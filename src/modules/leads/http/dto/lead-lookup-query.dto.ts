import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { Optional } from '../../../../common/presence';
import { LeadListQueryDto } from './lead-query.dto';

const TEXT = 255;

/** GET /v2/lead/ query with the lookup keys: each an exact match, combinable with the other filters. */
export class LeadLookupQueryDto extends LeadListQueryDto {
  @ApiPropertyOptional({ description: 'Leads with this phone, in any format the create accepts (compared normalised; 400 when not a phone)', maxLength: 32 })
  @Optional()
  @IsString()
  @Length(1, 32)
  phone?: string;

  @ApiPropertyOptional({ description: 'Leads with this id in CRM A (exact)', example: 'CRM-A-100000', maxLength: TEXT })
  @Optional()
  @IsString()
  @Length(1, TEXT)
  externalIdCrmA?: string;

  @ApiPropertyOptional({ description: 'Leads with this id in CRM B (exact)', maxLength: TEXT })
  @Optional()
  @IsString()
  @Length(1, TEXT)
  externalIdCrmB?: string;

  @ApiPropertyOptional({ description: 'Leads with this id in CRM C (exact)', maxLength: TEXT })
  @Optional()
  @IsString()
  @Length(1, TEXT)
  externalIdCrmC?: string;

  @ApiPropertyOptional({ description: 'Leads with this id in CRM D (exact)', maxLength: TEXT })
  @Optional()
  @IsString()
  @Length(1, TEXT)
  externalIdCrmD?: string;
}
