import { ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
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

export const createValidationPipe = (): ValidationPipe => new ValidationPipe(validationOptions);
