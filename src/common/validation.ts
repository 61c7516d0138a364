import { ArgumentMetadata, ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { DomainError, FieldError } from './domain-error';

/** Constraints that say what is fundamentally wrong (missing, wrong type, not an allowed value) come first. */
const CONSTRAINT_RANK: Record<string, number> = {
  isDefined: 0,
  isString: 1, isInt: 1, isNumber: 1, isBoolean: 1, isArray: 1, isObject: 1, isDate: 1, isDateString: 1, isISO8601: 1, nestedValidation: 1,
  isIn: 2, isEnum: 2,
};

/**
 * The one message a field gets: the most fundamental of its failed constraints. A string sent
 * for an int is "must be an integer", not "must not be greater than 2147483647" (class-validator
 * runs a property's constraints in reverse declaration order, so stopping at its first error
 * would report the range).
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
}

export const createValidationPipe = (): ValidationPipe => new ApiValidationPipe(validationOptions);
