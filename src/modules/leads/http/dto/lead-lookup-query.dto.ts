import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { Optional } from '../../../../common/presence';
import { LeadListQueryDto } from './lead-query.dto';

const TEXT = 255;

/** GET /v2/lead/ query with the lookup keys (issue 13): each an exact match, combinable with the other filters. */
export class LeadLookupQueryDto extends LeadListQueryDto {
  @ApiPropertyOptional({ description: 'Leads with this phone, in any format the create accepts (compared normalised; 400 when not a phone)', example: '+79161234567', maxLength: 32 })
  @Optional() @IsString() @Length(1, 32)
  phone?: string;

  @ApiPropertyOptional({ description: 'Leads with this id in CRM A (exact)', example: 'crm-a-10045', maxLength: TEXT })
  @Optional() @IsString() @Length(1, TEXT)
  externalIdCrmA?: string;

  @ApiPropertyOptional({ description: 'Leads with this id in CRM B (exact)', example: 'crm-b-10045', maxLength: TEXT })
  @Optional() @IsString() @Length(1, TEXT)
  externalIdCrmB?: string;

  @ApiPropertyOptional({ description: 'Leads with this id in CRM C (exact)', example: 'crm-c-10045', maxLength: TEXT })
  @Optional() @IsString() @Length(1, TEXT)
  externalIdCrmC?: string;

  @ApiPropertyOptional({ description: 'Leads with this id in CRM D (exact)', example: 'crm-d-10045', maxLength: TEXT })
  @Optional() @IsString() @Length(1, TEXT)
  externalIdCrmD?: string;
}
