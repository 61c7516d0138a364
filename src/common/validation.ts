import { ArgumentMetadata, ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { DomainError, FieldError } from './domain-error';

/** Constraints that say what is fundamentally wrong (missing, wrong type, not an allowed value) come first. */
const CONSTRAINT_RANK: Record<string, number> = {
  isDefined: 0,
  isString: 1,
  isInt: 1,
  isNumber: 1,
  isBoolean: 1,
  isArray: 1,
  isObject: 1,
  isDate: 1,
  isDateString: 1,
  isISO8601: 1,
  nestedValidation: 1,
  isIn: 2,
  isEnum: 2,
};

/**
 * The one message a field gets: its most fundamental failed constraint, so a string sent for an int is "must be an integer",
 * not the range (class-validator runs a property's constraints in reverse declaration order).
 */
export function mainConstraintMessage(constraints: Record<string, string>): string | undefined {
  const names = Object.keys(constraints);
  names.sort((a, b) => (CONSTRAINT_RANK[a] ?? 9) - (CONSTRAINT_RANK[b] ?? 9));
  return names.length ? constraints[names[0]] : undefined;
}

/** Flattens class-validator's tree into `field.path: message` pairs, one per field. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const message = mainConstraintMessage(e.constraints ?? {});
    if (message !== undefined) out.push({ field, message });
    if (e.children?.length) out.push(...flattenValidationErrors(e.children, field));
  }
  return out;
}

/**
 * One options object for the app and the tests: unknown fields are stripped (API.md: "ignored"),
 * no implicit type coercion of bodies (a string is not an int), errors become one domain error.
 */
export const validationOptions: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: false,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  validateCustomDecorators: true,
  stopAtFirstError: false,
  exceptionFactory: (errors: ValidationError[]) => DomainError.validation(flattenValidationErrors(errors)),
};

/**
 * Path parameters pass through untouched: the global pipe would otherwise turn `1e2`, `0x10`,
 * `+1` or `1.0` into numbers before IdPipe sees them, and those would reach real records.
 * IdPipe alone decides what a path id is (PRODUCT.md: anything but a positive int32 is a 400).
 */
class ApiValidationPipe extends ValidationPipe {
  protected override transformPrimitive(value: unknown, metadata: ArgumentMetadata): unknown {
    return metadata.type === 'param' ? value : super.transformPrimitive(value, metadata);
  }

  /** A body field over its size cap is refused before class-transformer copies the body (see oversizeFields). */
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype) {
      const oversize = oversizeFields(value, metadata.metatype);
      if (oversize.length) throw DomainError.validation(oversize);
    }
    return super.transform(value, metadata);
  }
}

/** The rules that cap a field's size; they are cheap to check on the raw body. */
const SIZE_RULES = new Set(['arrayMaxSize', 'maxItems', 'maxKeys']);
const sizeRulesByClass = new WeakMap<object, ValidationMetadata[]>();

function sizeRulesOf(metatype: new (...args: never[]) => unknown): ValidationMetadata[] {
  let rules = sizeRulesByClass.get(metatype);
  if (!rules) {
    rules = getMetadataStorage()
      .getTargetValidationMetadatas(metatype, '', true, false)
      .filter((m) => m.name !== undefined && SIZE_RULES.has(m.name) && !m.each);
    sizeRulesByClass.set(metatype, rules);
  }
  return rules;
}

function ruleMessage(rule: ValidationMetadata, args: ValidationArguments, defaultMessage?: (a: ValidationArguments) => string): string {
  const raw = typeof rule.message === 'function' ? rule.message(args) : (rule.message ?? defaultMessage?.(args) ?? `${args.property} is too large`);
  return raw.replace(/\$property/g, args.property).replace(/\$constraint1/g, String(args.constraints[0]));
}

/**
 * The top-level fields of a body over their size caps (ArrayMaxSize, MaxItems, MaxKeys), checked on the raw body so an oversize
 * list is refused before class-transformer and class-validator copy and validate every item (1,000 numbers cost 30-50 ms).
 * The same rules run again in the validation proper; a value of another type is left to it.
 */
export function oversizeFields(body: unknown, metatype: new (...args: never[]) => unknown): FieldError[] {
  if (body === null || typeof body !== 'object') return [];
  const errors: FieldError[] = [];
  for (const rule of sizeRulesOf(metatype)) {
    const value = (body as Record<string, unknown>)[rule.propertyName];
    if (value === undefined || value === null || (rule.name === 'arrayMaxSize' && !Array.isArray(value))) continue;
    const constraint = getMetadataStorage().getTargetValidatorConstraints(rule.constraintCls)[0]?.instance;
    const args: ValidationArguments = { value, constraints: rule.constraints, targetName: metatype.name, object: body, property: rule.propertyName };
    if (constraint && !constraint.validate(value, args)) {
      errors.push({ field: rule.propertyName, message: ruleMessage(rule, args, constraint.defaultMessage?.bind(constraint)) });
    }
  }
  return errors;
}

/** The app's global pipe: class-validator through Nest's ValidationPipe, with the options above. */
export const createValidationPipe = (): ValidationPipe => new ApiValidationPipe(validationOptions);

/*
 * Size caps for fields a domain rule checks later (maps, lists of dates): values of another type pass, so the domain's own
 * message still names a wrong type; each states its cap in its message. Document the same cap in the @ApiProperty.
 */

/** An object with at most `max` keys (`what` names them in the message). */
export const MaxKeys = (max: number, what = 'keys', options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'maxKeys',
      constraints: [max],
      validator: {
        validate: (v: unknown) => v === null || typeof v !== 'object' || Array.isArray(v) || Object.keys(v).length <= max,
        defaultMessage: (a) => `${a?.property} must have at most ${max} ${what}`,
      },
    },
    options,
  );

/** An array with at most `max` items. */
export const MaxItems = (max: number, what = 'items', options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'maxItems',
      constraints: [max],
      validator: {
        validate: (v: unknown) => !Array.isArray(v) || v.length <= max,
        defaultMessage: (a) => `${a?.property} must have at most ${max} ${what}`,
      },
    },
    options,
  );

/** Every string item of an array at most `max` characters; the message names the first longer one. */
export const MaxItemLength = (max: number, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'maxItemLength',
      constraints: [max],
      validator: {
        validate: (v: unknown) => !Array.isArray(v) || v.every((item) => typeof item !== 'string' || item.length <= max),
        defaultMessage: (a) => {
          const i = Array.isArray(a?.value) ? a.value.findIndex((item: unknown) => typeof item === 'string' && item.length > max) : -1;
          return `${a?.property} item ${i} must be at most ${max} characters`;
        },
      },
    },
    options,
  );

/**
 * One item of a batch body through exactly the checks the global validation pipe gives a single body
 * of `route` (the same DTO and options: unknown fields dropped, no type coercion), as a result.
 */
export function checkBatchBody<T extends object>(
  dtoClass: new () => T,
  raw: unknown,
  route: string,
): { ok: true; dto: T } | { ok: false; errors: FieldError[] } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, errors: [{ field: '', message: `must be an object (a body of ${route})` }] };
  }
  const { transformOptions, exceptionFactory: _factory, transform: _transform, ...validatorOptions } = validationOptions;
  const dto = plainToInstance(dtoClass, raw, transformOptions);
  const errors = validateSync(dto, validatorOptions);
  return errors.length ? { ok: false, errors: flattenValidationErrors(errors) } : { ok: true, dto };
}
