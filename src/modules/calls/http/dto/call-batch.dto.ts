import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray } from 'class-validator';
import { FieldErrorView } from '../../../../common/openapi/envelope.decorators';
import { checkBatchBody } from '../../../../common/validation';
import { type CallBatchItem, MAX_BATCH_CALLS } from '../../call-batch.service';
import { RecordCallDto } from './call.dto';

/**
 * POST /v2/call/create-batch/ body. Only the list's shape is checked for the whole request (400,
 * nothing stored); each item is checked on its own by checkCallBatchItem, so a bad item fails alone.
 */
export class RecordCallBatchDto {
  @ApiProperty({
    type: [RecordCallDto],
    minItems: 1,
    maxItems: MAX_BATCH_CALLS,
    description: `1 to ${MAX_BATCH_CALLS} bodies of POST /v2/call/create/; each is validated and recorded on its own (per-item results)`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_CALLS)
  calls: unknown[];
}

/** One item through exactly the checks a single call body gets (checkBatchBody), as a result. */
export function checkCallBatchItem(raw: unknown): CallBatchItem {
  const checked = checkBatchBody(RecordCallDto, raw, 'POST /v2/call/create/');
  return checked.ok ? { ok: true, input: checked.dto } : checked;
}

/** One entry of `results`: `id` when recorded (or recorded before), `errors` when not. */
export class CallBatchItemResultView {
  @ApiProperty({ type: 'integer', example: 0, description: 'position of the item in calls' }) index: number;
  @ApiProperty({ example: true }) success: boolean;
  @ApiPropertyOptional({ type: 'integer', example: 501, description: 'the call, new or delivered before (success only)' }) id?: number;
  @ApiPropertyOptional({ type: [FieldErrorView], description: 'why the item was refused (failure only)' }) errors?: FieldErrorView[];
}

export class CallBatchResultView {
  @ApiProperty({ type: [CallBatchItemResultView], description: 'one per item, in the order of calls' }) results: CallBatchItemResultView[];
  @ApiProperty({ type: 'integer', example: 2 }) recorded: number;
  @ApiProperty({ type: 'integer', example: 0 }) failed: number;
}
