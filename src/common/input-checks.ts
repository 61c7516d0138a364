import type { NextFunction, Request, Response } from 'express';
import { DomainError, FieldError } from './domain-error';

/** A request whose body or query was refused before routing; the error is raised after authentication. */
export type InputCheckedRequest = Request & { inputError?: unknown };

/** Keys that would reach an object's prototype when copied (class-transformer, spreads, assignments). */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** No API body nests anywhere near this; far deeper input would overflow the stack of object copying. */
export const MAX_DEPTH = 32;

/**
 * The first value PostgreSQL could not store or that would break on the way: a string with a
 * NUL character (text and jsonb reject it) or a lone UTF-16 surrogate (not valid Unicode: jsonb
 * rejects it, URI-based validators throw), a key such as `__proto__`, which object copying turns
 * into a prototype change, silently dropping the entry, or nesting deeper than MAX_DEPTH.
 * Null when the input is clean.
 */
export function findUnsafeInput(value: unknown, path = ''): FieldError | null {
  return walk(value, path, 0);
}

function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (!text.isWellFormed()) return 'must be well-formed Unicode (no lone surrogates)';
  return null;
}

function walk(value: unknown, path: string, depth: number): FieldError | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { field: path || 'body', message: problem } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_DEPTH) return { field: path || 'body', message: `nests deeper than ${MAX_DEPTH} levels` };
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = walk(item, `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    const child = path ? `${path}.${key}` : key;
    if (FORBIDDEN_KEYS.has(key) || textProblem(key)) return { field: child.replace(/\u0000/g, '\\0').toWellFormed(), message: 'is not an acceptable key' };
    const found = walk((value as Record<string, unknown>)[key], child, depth + 1);
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

/**
 * Express error middleware right after the body parser: a body that cannot be read (malformed
 * JSON, over 1 MiB, bad encoding) is not answered yet. The error waits on the request, so a
 * caller without a valid key gets 401 whatever its body (PRODUCT.md: 401 on every endpoint).
 */
export function deferBodyErrors(err: unknown, req: InputCheckedRequest, _res: Response, next: NextFunction): void {
  if (!isBodyParserError(err)) return next(err);
  req.inputError = err;
  req.body = undefined;
  next();
}

/** Middleware after the body parser: unstorable text or prototype keys in the body or query wait as a 400. */
export function checkInputSafety(req: InputCheckedRequest, _res: Response, next: NextFunction): void {
  if (!req.inputError) {
    const found = findUnsafeInput(req.body) ?? findUnsafeInput(req.query);
    if (found) req.inputError = DomainError.validation([found], 'UNSAFE_INPUT');
  }
  next();
}

/** Raised by the API key guard once the caller is known (or the route is public). */
export function raiseDeferredInputError(req: InputCheckedRequest): void {
  if (req.inputError) throw req.inputError;
}
