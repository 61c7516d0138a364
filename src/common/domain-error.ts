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
  /** A body in a format the API does not read (anything but JSON). */
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable'
  /** What was asked for existed once and is gone for good (events past retention). */
  | 'gone';

declare const CATALOGUED: unique symbol;

/**
 * A code from a module's catalogue (`domain/<module>.errors.ts`, made with `errorCodes`): a free
 * string does not compile. Codes never reach the client (the envelope carries the message); the
 * filter logs them on 4xx, so an operator can count refusals by cause without reading messages.
 */
export type ErrorCode = string & { readonly [CATALOGUED]: true };

/** Declares a catalogue: `errorCodes({ CODE_TAKEN: 'ORDER_CODE_TAKEN' })`, each value a literal usable as a code. */
export function errorCodes<const T extends Record<string, string>>(codes: T): { readonly [K in keyof T]: T[K] & ErrorCode } {
  return codes as { readonly [K in keyof T]: T[K] & ErrorCode };
}

/** Codes raised outside any one module: request checks, idempotency, and the generic defaults. */
export const COMMON_ERRORS = errorCodes({
  /** Input failed a check; the field errors say which. The default of validation errors. */
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  /** The default of not-found errors that name no module code. */
  NOT_FOUND: 'NOT_FOUND',
  /** Too many query parameters or array elements. */
  QUERY_TOO_LONG: 'QUERY_TOO_LONG',
  /** A body over the route's limit. */
  BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  /** A body sent with a Content-Type other than JSON. */
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  /** A string value refused by the input safety checks (control characters, unpaired surrogates). */
  UNSAFE_INPUT: 'UNSAFE_INPUT',
  /** An Idempotency-Key replayed with another body. */
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  /** A request with the same Idempotency-Key is still running (or took over). */
  IDEMPOTENCY_IN_PROGRESS: 'IDEMPOTENCY_IN_PROGRESS',
});

export interface FieldError {
  field: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static validation(errors: FieldError[], code: ErrorCode = COMMON_ERRORS.VALIDATION_FAILED): DomainError {
    return new DomainError('validation', code, summarise(errors), errors);
  }

  static invalidField(field: string, message: string, code: ErrorCode = COMMON_ERRORS.VALIDATION_FAILED): DomainError {
    return DomainError.validation([{ field, message }], code);
  }

  static notFound(what: string, id: number | string, code: ErrorCode = COMMON_ERRORS.NOT_FOUND): DomainError {
    return new DomainError('not_found', code, `${what} ${id} not found`);
  }

  static conflict(code: ErrorCode, message: string): DomainError {
    return new DomainError('conflict', code, message);
  }

  static gone(code: ErrorCode, message: string): DomainError {
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
