import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { LOOKUP_KEYS, type LookupKey } from '../../domain/lead-lookup';
import { CreateLeadV2Dto } from './lead.dto';

/** POST /v2/lead/upsert/: a create body and the key that finds the lead to update. */
export class UpsertLeadV2Dto extends CreateLeadV2Dto {
  @ApiProperty({
    enum: LOOKUP_KEYS,
    example: 'externalIdCrmA',
    description: "The field whose value (in this body, required) finds the lead in the body's order; phone is compared normalised",
  })
  @IsIn(LOOKUP_KEYS)
  matchBy: LookupKey;
}

/** `data` of an upsert: the lead, and whether it was created (false: updated). */
export class UpsertResultView {
  @ApiProperty({ type: 'integer', example: 101 }) id: number;
  @ApiProperty({ example: false }) created: boolean;
}
