import type { NextFunction, Request, Response } from 'express';
import { formatBytes } from './body-limits';
import { COMMON_ERRORS, DomainError, FieldError } from './domain-error';

/** A request whose body or query was refused before routing; the error is raised after authentication. */
export type InputCheckedRequest = Request & { inputError?: unknown };

/** Keys that would reach an object's prototype when copied (class-transformer, spreads, assignments). */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** No API body nests anywhere near this; far deeper input would overflow the stack of object copying. */
export const MAX_DEPTH = 32;
/**
 * Global size caps, checked before class-transformer copies a body (copying and validating 60,000 keys holds the event loop
 * for 2 s). Generous: the DTOs' per-field caps are tighter. The largest valid list is 1,000 ids, the largest valid map 200
 * custom values, the largest valid body (an order at every per-field cap) about 4,000 values.
 */
export const MAX_ARRAY_ITEMS = 1000;
export const MAX_OBJECT_KEYS = 250;
export const MAX_VALUES = 10_000;
/**
 * A batch route carries up to 1,000 lead bodies or 500 call bodies (its body limit bounds it as
 * well): a lead's usual fields and a few custom values each, a call's 20 fields at most.
 */
export const MAX_BATCH_VALUES = 50_000;
const BATCH_ROUTES = ['/v2/lead/create-batch', '/v2/call/create-batch'];
const valuesCapFor = (path: string) => (BATCH_ROUTES.some((route) => path.toLowerCase().startsWith(route)) ? MAX_BATCH_VALUES : MAX_VALUES);

/**
 * The first value PostgreSQL could not store or that would break on the way: a string with NUL or a lone UTF-16 surrogate,
 * a key such as `__proto__` (object copying would turn it into a prototype change), nesting past MAX_DEPTH, a size past the
 * caps; null when clean. Sizes are checked before children are visited: a hostile body costs at most MAX_VALUES visits.
 */
export function findUnsafeInput(value: unknown, path = '', maxValues = MAX_VALUES): FieldError | null {
  return walk(value, path, 0, { values: 0, max: maxValues });
}

function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (!text.isWellFormed()) return 'must be well-formed Unicode (no lone surrogates)';
  return null;
}

/** A container's own size against the caps; `seen.values` counts every value met so far. */
function sizeProblem(size: number, isArray: boolean, seen: { values: number; max: number }): FieldError['message'] | null {
  if (isArray && size > MAX_ARRAY_ITEMS) return `must have at most ${MAX_ARRAY_ITEMS} items`;
  if (!isArray && size > MAX_OBJECT_KEYS) return `must have at most ${MAX_OBJECT_KEYS} keys`;
  seen.values += size;
  return null;
}

function walk(value: unknown, path: string, depth: number, seen: { values: number; max: number }): FieldError | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { field: path || 'body', message: problem } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_DEPTH) return { field: path || 'body', message: `nests deeper than ${MAX_DEPTH} levels` };
  const keys = Array.isArray(value) ? null : Object.keys(value);
  const tooBig = sizeProblem(keys ? keys.length : (value as unknown[]).length, !keys, seen);
  if (tooBig) return { field: path || 'body', message: tooBig };
  if (seen.values > seen.max) return { field: 'body', message: `must hold at most ${seen.max} values in all` };
  if (!keys) {
    for (const [i, item] of (value as unknown[]).entries()) {
      const found = walk(item, `${path}[${i}]`, depth + 1, seen);
      if (found) return found;
    }
    return null;
  }
  for (const key of keys) {
    const child = path ? `${path}.${key}` : key;
    if (FORBIDDEN_KEYS.has(key) || textProblem(key)) return { field: child.replaceAll('\u0000', '\\0').toWellFormed(), message: 'is not an acceptable key' };
    const found = walk((value as Record<string, unknown>)[key], child, depth + 1, seen);
    if (found) return found;
  }
  return null;
}

/** Any client error reaching the middleware right after the body parser is the body parser's (JSON, size, encoding, zlib). */
function isBodyParserError(err: unknown): boolean {
  const e = err as { status?: unknown; statusCode?: unknown } | null;
  const status = e?.status ?? e?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** A body over the route's limit (body-parser's error carries the limit in bytes): 413 naming it. */
function tooLarge(err: unknown): DomainError | null {
  const e = err as { type?: unknown; limit?: unknown } | null;
  if (e?.type !== 'entity.too.large') return null;
  const limit = typeof e.limit === 'number' ? `the ${formatBytes(e.limit)} limit of this route` : 'the limit of this route';
  return new DomainError('payload_too_large', COMMON_ERRORS.BODY_TOO_LARGE, `Request body exceeds ${limit}`);
}

/**
 * Express error middleware right after the body parser: a body that cannot be read (malformed
 * JSON, over the route's limit, bad encoding) is not answered yet. The error waits on the request,
 * so a caller without a valid key gets 401 whatever its body (PRODUCT.md: 401 on every endpoint).
 */
export function deferBodyErrors(err: unknown, req: InputCheckedRequest, _res: Response, next: NextFunction): void {
  if (!isBodyParserError(err)) return next(err);
  req.inputError = tooLarge(err) ?? err;
  req.body = undefined;
  next();
}

/**
 * Express parses the query string on every read of `req.query`; read it once here and keep the
 * result. A query the parser refuses (over its parameter limit) waits as a 400 and reads as {}.
 */
function readQueryOnce(req: InputCheckedRequest): unknown {
  let query: unknown = {};
  try {
    query = req.query;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    req.inputError ??= err;
  }
  Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });
  return query;
}

/**
 * Middleware after the body parser: unstorable text, prototype keys or sizes past the global caps
 * in the body or query wait as a 400, before routing, class-transformer or any per-item work.
 */
export function checkInputSafety(req: InputCheckedRequest, _res: Response, next: NextFunction): void {
  const query = readQueryOnce(req);
  if (!req.inputError) {
    const found = findUnsafeInput(req.body, '', valuesCapFor(req.path)) ?? findUnsafeInput(query);
    if (found) req.inputError = DomainError.validation([found], COMMON_ERRORS.UNSAFE_INPUT);
  }
  next();
}

/** A body in this Content-Type is read as JSON: any `json` media type, or none at all (API.md: every body is JSON). */
export function readsAsJson(contentType: unknown): boolean {
  return contentType === undefined || contentType === '' || (typeof contentType === 'string' && /json/i.test(contentType));
}

const hasBody = (req: Request) => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

/** The media type a request named (no parameters, at most 100 characters), to say it back. */
const mediaTypeOf = (contentType: string) => contentType.split(';')[0].trim().slice(0, 100) || 'an empty Content-Type';

/**
 * Middleware after the body parser: a body sent as anything but JSON (a form, plain text) waits as a 415 saying which
 * Content-Type to send, instead of reaching the DTO unread, where every field would look missing.
 */
export function refuseNonJsonBody(req: InputCheckedRequest, _res: Response, next: NextFunction): void {
  const type = req.headers['content-type'];
  if (!req.inputError && hasBody(req) && !readsAsJson(type)) {
    req.inputError = new DomainError(
      'unsupported_media_type',
      COMMON_ERRORS.UNSUPPORTED_MEDIA_TYPE,
      `Request bodies are JSON: send Content-Type: application/json (this one was sent as ${mediaTypeOf(String(type))})`,
    );
  }
  next();
}

/** Raised by the API key guard once the caller is known (or the route is public). */
export function raiseDeferredInputError(req: InputCheckedRequest): void {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows, unchanged, what the body or query parser raised (or our DomainError); the filter maps both
  if (req.inputError) throw req.inputError;
}
