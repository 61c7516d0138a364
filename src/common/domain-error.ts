/**
 * Domain errors carry a kind (the class of failure) and a stable code; they know nothing of HTTP.
 * The global filter maps the kind to a status, exhaustively.
 */
export type ErrorKind =
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'unavailable'
  /** What was asked for existed once and is gone for good (events past retention). */
  | 'gone';

export interface FieldError {
  field: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static validation(errors: FieldError[], code = 'VALIDATION_FAILED'): DomainError {
    return new DomainError('validation', code, summarise(errors), errors);
  }

  static invalidField(field: string, message: string, code = 'VALIDATION_FAILED'): DomainError {
    return DomainError.validation([{ field, message }], code);
  }

  static notFound(what: string, id: number | string, code = 'NOT_FOUND'): DomainError {
    return new DomainError('not_found', code, `${what} ${id} not found`);
  }

  static conflict(code: string, message: string): DomainError {
    return new DomainError('conflict', code, message);
  }

  static gone(code: string, message: string): DomainError {
    return new DomainError('gone', code, message);
  }
}

export function summarise(errors: FieldError[]): string {
  if (errors.length === 0) return 'Invalid input';
  const shown = errors.slice(0, 5).map((e) => `${e.field}: ${e.message}`);
  const more = errors.length > 5 ? ` (and ${errors.length - 5} more)` : '';
  return `Invalid input: ${shown.join('; ')}${more}`;
}

export function assertUnreachable(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}
