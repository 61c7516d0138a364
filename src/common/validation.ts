import { ArgumentMetadata, ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { DomainError, FieldError } from './domain-error';

/** Flattens class-validator's tree into `field.path: message` pairs. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    const field = parent ? `${parent}.${e.property}` : e.property;
    for (const message of Object.values(e.constraints ?? {})) out.push({ field, message });
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
  stopAtFirstError: true,
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
