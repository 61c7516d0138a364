import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, validateSync } from 'class-validator';
import { FieldErrorView } from '../../../../common/openapi/envelope.decorators';
import { flattenValidationErrors, validationOptions } from '../../../../common/validation';
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

const { transformOptions, exceptionFactory: _factory, transform: _transform, ...validatorOptions } = validationOptions;

/** One item through exactly the checks the global validation pipe gives a single call body, as a result. */
export function checkCallBatchItem(raw: unknown): CallBatchItem {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, errors: [{ field: '', message: 'must be an object (a body of POST /v2/call/create/)' }] };
  }
  const dto = plainToInstance(RecordCallDto, raw, transformOptions);
  const errors = validateSync(dto, validatorOptions);
  if (errors.length) return { ok: false, errors: flattenValidationErrors(errors) };
  return { ok: true, input: dto };
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
