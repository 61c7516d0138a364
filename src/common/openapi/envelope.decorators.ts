import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiParam, ApiProperty, type ApiPropertyOptions, ApiQuery, ApiResponse, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import type { HeaderObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';

/** One entry of `data.errors` in a 400: the field (dotted path) and what is wrong with it. */
@ApiSchema({ name: 'FieldError' })
export class FieldErrorView {
  @ApiProperty({ example: 'phone' }) field: string;
  @ApiProperty({ example: 'phone must be a valid phone number' }) message: string;
}

/** `data` of a create: the new record's id. */
export class CreatedIdView {
  @ApiProperty({ type: 'integer', example: 1 }) id: number;
}

/** Schemas every operation shares, by component name: `document.ts` puts them under `components.schemas`. */
const SHARED_SCHEMAS = new Map<string, SchemaObject>();
export const sharedSchemas = (): Record<string, SchemaObject> => Object.fromEntries(SHARED_SCHEMAS);

/** A reference to the shared component `name`, registered with `schema` at its first use. */
export function shared(name: string, schema: () => SchemaObject): ReferenceObject {
  if (!SHARED_SCHEMAS.has(name)) SHARED_SCHEMAS.set(name, schema());
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * `data: []` (API.md: PHP's empty array) of updates and of every error without field errors. Its items are typed `null`, not `not: {}`:
 * no item is ever there (maxItems 0, const []), and generators that read no `not` (orval) type `null[]`, not `unknown[]`.
 */
const EMPTY_ARRAY = shared(
  'EmptyArray',
  () => ({ type: 'array', maxItems: 0, items: { type: 'null' }, const: [], description: 'always []', example: [] }) as SchemaObject,
);

type Data = Type<unknown> | 'empty' | SchemaObject;

const refTo = (model: Type<unknown>): ReferenceObject => ({ $ref: getSchemaPath(model) });
const modelsOf = (data: Data[]): Type<unknown>[] => data.filter((d): d is Type<unknown> => typeof d === 'function');

/** The envelope {success, message, data} around `data` (for a failure that carries data of its own). */
export function envelopeOf(data: SchemaObject | ReferenceObject, success = true): SchemaObject {
  return {
    type: 'object',
    required: ['success', 'message', 'data'],
    properties: {
      success: { type: 'boolean', const: success, example: success } as SchemaObject,
      message: { type: 'string', description: success ? "'' on success" : 'what went wrong, for a human', example: success ? '' : 'Lead not found' },
      data,
    },
  };
}

/** The part every success envelope shares; each one adds its `data`. */
const ENVELOPE = shared('Envelope', () => {
  const { data: _data, ...properties } = envelopeOf({}).properties!;
  return { type: 'object', required: ['success', 'message'], properties, description: 'Every success response: {success: true, message: "", data}' };
});

/** The success envelope named `name` around `data`. */
const envelopeNamed = (name: string, data: SchemaObject | ReferenceObject): ReferenceObject =>
  shared(name, () => ({ allOf: [ENVELOPE, { type: 'object', required: ['data'], properties: { data } }] }));

/** The list wrapper {list, next, total} of `model`, one component per item type; `next` = offset + list.length. */
export function pageOf(model: Type<unknown>): ReferenceObject {
  return shared(`${model.name}List`, () => ({
    type: 'object',
    required: ['list', 'next', 'total'],
    properties: {
      list: { type: 'array', items: refTo(model) },
      next: { type: 'integer', minimum: 0, description: 'offset + list.length: the offset of the next page', example: 1 },
      total: { type: 'integer', minimum: 0, description: 'how many match the filter', example: 1 },
    },
  }));
}

const envelopeFor = (data: Data): SchemaObject | ReferenceObject =>
  data === 'empty'
    ? envelopeNamed('EmptyEnvelope', EMPTY_ARRAY)
    : typeof data === 'function'
      ? envelopeNamed(`${data.name}Envelope`, refTo(data))
      : { allOf: [ENVELOPE, { type: 'object', required: ['data'], properties: { data } }] };

/**
 * 200 with the envelope around `data`: a response class, `'empty'` for `data: []`, or a schema
 * (the extra models a schema refers to go in `models`).
 */
export function ApiEnvelope(data: Data, options: { description?: string; models?: Type<unknown>[]; headers?: Record<string, HeaderObject> } = {}) {
  const models = [...modelsOf([data]), ...(options.models ?? [])];
  return applyDecorators(
    ...(models.length ? [ApiExtraModels(...models)] : []),
    ApiResponse({ status: 200, description: options.description ?? 'Done', schema: envelopeFor(data), headers: options.headers }),
  );
}

/** 200 with the envelope around an array of `model` (no pagination). */
export function ApiEnvelopeArray(model: Type<unknown>, description = 'All of them') {
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({ status: 200, description, schema: envelopeNamed(`${model.name}ArrayEnvelope`, { type: 'array', items: refTo(model) }) }),
  );
}

/** 200 with the envelope around the list wrapper {list, next, total} of `model`. */
export function ApiEnvelopeList(model: Type<unknown>, description = 'One page: {list, next, total}') {
  return applyDecorators(ApiExtraModels(model), ApiResponse({ status: 200, description, schema: envelopeNamed(`${model.name}ListEnvelope`, pageOf(model)) }));
}

/** 200 with data {id} of the new record. */
export const ApiCreated = (description = 'Created: data.id is the new record') => ApiEnvelope(CreatedIdView, { description });
/** A partial update or action answered with `data: []`. */
export const ApiUpdated = (description = 'Changed; data is []') => ApiEnvelope('empty', { description });

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 503;

export const ERROR_TEXT: Record<ErrorStatus, string> = {
  400: 'Invalid input: the message names the field; data.errors lists each field and what is wrong with it',
  401: 'No key, or an unknown, revoked or expired X-Api-Key',
  403: 'The key lacks the scope this operation needs',
  404: 'No record with this id',
  409: 'Conflicts with a stored record (a unique value taken, or an Idempotency-Key reused with another body)',
  410: 'Gone for good: the message says what expired and what to do instead',
  413: 'Body larger than the route limit',
  415: 'Body sent with a Content-Type other than application/json',
  429: 'Request budget of the key spent (RATE_LIMIT_REQUESTS); Retry-After says when to retry',
  503: 'Database unreachable or busy; Retry-After says when to retry',
};

/** Every failure: `data` lists the field errors of a 400 that names fields, else is []. */
const ERROR_ENVELOPE = shared('ErrorEnvelope', () => {
  const fieldErrors = shared('FieldErrors', () => ({
    type: 'object',
    required: ['errors'],
    properties: { errors: { type: 'array', items: refTo(FieldErrorView) } },
    description: 'data of a 400 that names fields',
  }));
  return { ...envelopeOf({ oneOf: [fieldErrors, EMPTY_ARRAY] }, false), description: 'Every failure: {success: false, message, data}' };
});

/** The failure envelopes an operation (or every operation of a controller) can answer. */
export function ApiErrors(...statuses: ErrorStatus[]) {
  return applyDecorators(
    ApiExtraModels(FieldErrorView),
    ...statuses.map((status) => ApiResponse({ status, description: ERROR_TEXT[status], schema: ERROR_ENVELOPE })),
  );
}

/** The errors of every operation behind the key: 401, 403, 429 and 503. */
export const ApiKeyErrors = () => ApiErrors(401, 403, 429, 503);

/** A custom value: text (also dates, date-times and multiselect codes joined by commas), number or boolean, by the field's type. */
export const CUSTOM_VALUE = { type: ['string', 'number', 'boolean'] } as unknown as SchemaObject;

/** customValues: custom field id → value. */
export const CUSTOM_VALUES: SchemaObject & ApiPropertyOptions = {
  type: 'object',
  propertyNames: { pattern: '^[1-9][0-9]*$' },
  additionalProperties: CUSTOM_VALUE,
  description: 'custom field id → value',
  example: { '7': 'flat' },
} as SchemaObject & ApiPropertyOptions;

/** A map that is `[]` when empty (API.md: PHP's empty array): a non-empty map, or []. */
export const mapOrEmptyArray = (map: SchemaObject): ApiPropertyOptions => ({ oneOf: [{ ...map, minProperties: 1 }, EMPTY_ARRAY] });

/** A path id (IdPipe: a positive integer); `example` names a record of the demo dataset. */
export const ApiIdParam = (name: string, example = 1) =>
  ApiParam({ name, type: 'integer', example, description: 'positive integer id (400 otherwise; 404 when no such record)' });

/** An ISO 8601 date-time, or a date alone. */
const DATE_OR_DATE_TIME: SchemaObject = {
  anyOf: [
    { type: 'string', format: 'date-time' },
    { type: 'string', format: 'date' },
  ],
};

/** The `createdAt[0]` (from) and `createdAt[1]` (to) query bounds, with optional examples. */
export const ApiCreatedAtQuery = (examples: { from?: string; to?: string } = {}) =>
  applyDecorators(
    ApiQuery({
      name: 'createdAt[0]',
      required: false,
      description: 'Created at or after (ISO 8601, inclusive)',
      schema: DATE_OR_DATE_TIME,
      example: examples.from,
    }),
    ApiQuery({
      name: 'createdAt[1]',
      required: false,
      description: 'Created at or before (ISO 8601, inclusive; a date alone means through its end)',
      schema: DATE_OR_DATE_TIME,
      example: examples.to,
    }),
  );
