import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray } from 'class-validator';
import { FieldErrorView } from '../../../../common/openapi/envelope.decorators';
import { checkBatchBody } from '../../../../common/validation';
import { sourceCommentText } from '../../domain/lead';
import { BatchItem, MAX_BATCH_LEADS } from '../../lead-bulk.service';
import { CreateLeadV2Dto } from './lead.dto';

/**
 * POST /v2/lead/create-batch/ body. Only the list's shape is checked for the whole request (400,
 * nothing stored); each item is checked on its own by checkBatchItem, so a bad item fails alone.
 */
export class CreateLeadBatchV2Dto {
  @ApiProperty({
    type: [CreateLeadV2Dto],
    minItems: 1,
    maxItems: MAX_BATCH_LEADS,
    description: `1 to ${MAX_BATCH_LEADS} bodies of POST /v2/lead/create/; each is validated and created on its own (per-item results)`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_LEADS)
  leads: unknown[];
}

/** One batch item through exactly the checks a single create body gets (checkBatchBody), as a result. */
export function checkBatchItem(raw: unknown): BatchItem {
  const checked = checkBatchBody(CreateLeadV2Dto, raw, 'POST /v2/lead/create/');
  return checked.ok ? { ok: true, input: { ...checked.dto, sourceComment: sourceCommentText(checked.dto.sourceComment) } } : checked;
}

/** One entry of `results`: `id` when created, `errors` when not. */
export class BatchItemResultView {
  @ApiProperty({ type: 'integer', example: 0, description: 'position of the item in leads' }) index: number;
  @ApiProperty({ example: true }) success: boolean;
  @ApiPropertyOptional({ type: 'integer', example: 101, description: 'the new lead (success only)' }) id?: number;
  @ApiPropertyOptional({ type: [FieldErrorView], description: 'why the item was refused (failure only)' }) errors?: FieldErrorView[];
}

export class BatchResultView {
  @ApiProperty({ type: [BatchItemResultView], description: 'one per item, in the order of leads' }) results: BatchItemResultView[];
  @ApiProperty({ type: 'integer', example: 2 }) created: number;
  @ApiProperty({ type: 'integer', example: 0 }) failed: number;
}
