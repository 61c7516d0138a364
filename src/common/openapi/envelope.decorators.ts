import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiParam, ApiProperty, type ApiPropertyOptions, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { HeaderObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';

/** One entry of `data.errors` in a 400: the field (dotted path) and what is wrong with it. */
export class FieldErrorView {
  @ApiProperty({ example: 'phone' }) field: string;
  @ApiProperty({ example: 'phone must be a valid phone number' }) message: string;
}

/** `data` of a 400 that names fields. */
export class FieldErrorsView {
  @ApiProperty({ type: [FieldErrorView] }) errors: FieldErrorView[];
}

/** `data` of a create: the new record's id. */
export class CreatedIdView {
  @ApiProperty({ type: 'integer', example: 1 }) id: number;
}

/** `data: []` (API.md: PHP's empty array) of updates and of every error without field errors. */
const EMPTY_ARRAY: SchemaObject = { type: 'array', maxItems: 0, items: { type: 'string' }, description: 'always []' };

type Data = Type<unknown> | 'empty' | SchemaObject;

const refTo = (model: Type<unknown>): ReferenceObject => ({ $ref: getSchemaPath(model) });
const modelsOf = (data: Data[]): Type<unknown>[] => data.filter((d): d is Type<unknown> => typeof d === 'function');

const dataSchema = (data: Data): SchemaObject | ReferenceObject => (data === 'empty' ? EMPTY_ARRAY : typeof data === 'function' ? refTo(data) : data);

/** The envelope {success, message, data} around `data`. */
export function envelopeOf(data: SchemaObject | ReferenceObject, success = true): SchemaObject {
  return {
    type: 'object',
    required: ['success', 'message', 'data'],
    properties: {
      success: { type: 'boolean', example: success },
      message: { type: 'string', description: success ? "'' on success" : 'what went wrong, for a human' },
      data,
    },
  };
}

/** The list wrapper {list, next, total}; `next` = offset + list.length. */
export function pageOf(items: SchemaObject | ReferenceObject): SchemaObject {
  return {
    type: 'object',
    required: ['list', 'next', 'total'],
    properties: {
      list: { type: 'array', items },
      next: { type: 'integer', description: 'offset + list.length: the offset of the next page' },
      total: { type: 'integer', description: 'how many match the filter' },
    },
  };
}

/**
 * 200 with the envelope around `data`: a response class, `'empty'` for `data: []`, or a schema
 * (the extra models a schema refers to go in `models`).
 */
export function ApiEnvelope(data: Data, options: { description?: string; models?: Type<unknown>[]; headers?: Record<string, HeaderObject> } = {}) {
  const models = [...modelsOf([data]), ...(options.models ?? [])];
  return applyDecorators(
    ...(models.length ? [ApiExtraModels(...models)] : []),
    ApiResponse({ status: 200, description: options.description ?? 'Done', schema: envelopeOf(dataSchema(data)), headers: options.headers }),
  );
}

/** 200 with the envelope around an array of `model` (no pagination). */
export function ApiEnvelopeArray(model: Type<unknown>, description = 'All of them') {
  return ApiEnvelope({ type: 'array', items: refTo(model) }, { description, models: [model] });
}

/** 200 with the envelope around the list wrapper {list, next, total} of `model`. */
export function ApiEnvelopeList(model: Type<unknown>, description = 'One page: {list, next, total}') {
  return ApiEnvelope(pageOf(refTo(model)), { description, models: [model] });
}

/** 200 with data {id} of the new record. */
export const ApiCreated = (description = 'Created: data.id is the new record') => ApiEnvelope(CreatedIdView, { description });
/** A partial update or action answered with `data: []`. */
export const ApiUpdated = (description = 'Changed; data is []') => ApiEnvelope('empty', { description });

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 429 | 503;

const ERROR_TEXT: Record<ErrorStatus, string> = {
  400: 'Invalid input: the message names the field; data.errors lists each field and what is wrong with it',
  401: 'No key, or an unknown, revoked or expired X-Api-Key',
  403: 'The key lacks the scope this operation needs',
  404: 'No record with this id',
  409: 'Conflicts with a stored record (a unique value taken, or an Idempotency-Key reused with another body)',
  410: 'Gone for good: the message says what expired and what to do instead',
  413: 'Body larger than the route limit',
  429: 'Request budget of the key spent (RATE_LIMIT_REQUESTS); Retry-After says when to retry',
  503: 'Database unreachable or busy; Retry-After says when to retry',
};

/** The failure envelopes an operation (or every operation of a controller) can answer. */
export function ApiErrors(...statuses: ErrorStatus[]) {
  return applyDecorators(
    ApiExtraModels(FieldErrorsView),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: ERROR_TEXT[status],
        schema: envelopeOf(status === 400 ? { oneOf: [refTo(FieldErrorsView), EMPTY_ARRAY] } : EMPTY_ARRAY, false),
      }),
    ),
  );
}

/** The errors of every operation behind the key: 401, 403, 429 and 503. */
export const ApiKeyErrors = () => ApiErrors(401, 403, 429, 503);

/** A custom value: string, number, boolean or a list of option codes, depending on the field's type. */
export const CUSTOM_VALUE: SchemaObject = {
  oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { type: 'string' } }],
};

/** customValues: custom field id → value. */
export const CUSTOM_VALUES: SchemaObject & ApiPropertyOptions = {
  type: 'object',
  additionalProperties: CUSTOM_VALUE,
  description: 'custom field id → value',
  example: { '7': 'flat' },
};

/** A map that is `[]` when empty (API.md: PHP's empty array). */
export const mapOrEmptyArray = (map: SchemaObject): ApiPropertyOptions => ({ oneOf: [map, EMPTY_ARRAY] });

/** A path id (IdPipe: a positive integer); `example` names a record of the demo dataset. */
export const ApiIdParam = (name: string, example = 1) =>
  ApiParam({ name, type: 'integer', example, description: 'positive integer id (400 otherwise; 404 when no such record)' });
