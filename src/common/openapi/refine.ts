import type { HeaderObject, OpenAPIObject, OperationObject, ReferenceObject, ResponseObject } from '@nestjs/swagger';
import { ERROR_TEXT, type ErrorStatus } from './envelope.decorators';
import { OPERATION_IDS } from './operation-ids';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of the document with its method and path. */
export function operationsOf(document: OpenAPIObject): { method: string; path: string; op: OperationObject }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] as OperationObject })),
  );
}

/** A name for an operation the table lacks (the table is checked complete by a test): method and path in camelCase. */
const derivedId = (method: string, path: string) =>
  method + path.replace(/[{}]/g, '').replace(/(^|[^a-zA-Z0-9]+)([a-zA-Z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());

/** The SDK method name of each operation, from OPERATION_IDS. */
export function assignOperationIds(document: OpenAPIObject): void {
  for (const { method, path, op } of operationsOf(document)) op.operationId = OPERATION_IDS[`${method.toUpperCase()} ${path}`] ?? derivedId(method, path);
}

/** A response header; `required` when every response that declares it carries it, whatever the configuration. */
const header = (description: string, schema: HeaderObject['schema'], example?: unknown, required = false): HeaderObject => ({
  description,
  ...(required ? { required } : {}),
  schema,
  ...(example === undefined ? {} : { example }),
});

/** The response headers the service sends, declared once. */
export const RESPONSE_HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': header(
    'The request id: the caller’s own X-Request-Id when sane, else a new one; logged with the request',
    { type: 'string' },
    'b0f6e1a2-4c1d-4f3e-9a57-0c2d1e3f4a5b',
    true,
  ),
  'X-RateLimit-Limit': header('Requests the key may make per window (sent when the deployment sets RATE_LIMIT_REQUESTS)', { type: 'integer', minimum: 0 }, 600),
  'X-RateLimit-Remaining': header('Requests left to the key in this window (with RATE_LIMIT_REQUESTS)', { type: 'integer', minimum: 0 }, 599),
  'X-RateLimit-Reset': header('Seconds until the window resets (with RATE_LIMIT_REQUESTS)', { type: 'integer', minimum: 0 }, 60),
  'Retry-After': header('Seconds to wait before retrying', { type: 'integer', minimum: 0 }, 1),
  ETag: header(
    'Validator of this response body; send it back as If-None-Match to get a 304 while it is unchanged',
    { type: 'string' },
    'W/"2a-3f1e0c2b"',
    true,
  ),
  'Idempotent-Replayed': header(
    'true when this answer is the stored answer of an earlier request with the same Idempotency-Key',
    { type: 'string', enum: ['true'] },
    'true',
  ),
};
const headerRef = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });

const isIdempotent = (op: OperationObject) => (op.parameters ?? []).some((p) => 'in' in p && p.in === 'header' && p.name === 'Idempotency-Key');
const isPublic = (op: OperationObject) => Array.isArray(op.security) && op.security.length === 0;

/** The headers one response of `op` carries. */
function headersOf(op: OperationObject, method: string, status: string): string[] {
  const names = ['X-Request-Id'];
  if (!isPublic(op) && status !== '401') names.push('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset');
  if (status === '429' || status === '503') names.push('Retry-After');
  if (method === 'get' && (status.startsWith('2') || status === '304')) names.push('ETag');
  if (isIdempotent(op) && status.startsWith('2')) names.push('Idempotent-Replayed');
  return names;
}

const NOT_MODIFIED: ResponseObject = { description: 'Not modified: the If-None-Match ETag still matches; no body' };

/**
 * Declares the response headers of every response (components.headers, referenced), and the 304
 * every GET answers to a matching If-None-Match (Express's ETag on each GET body).
 */
export function declareResponseHeaders(document: OpenAPIObject): void {
  document.components = { ...document.components, headers: { ...document.components?.headers, ...RESPONSE_HEADERS } };
  for (const { method, op } of operationsOf(document)) {
    if (method === 'get') op.responses['304'] = { ...NOT_MODIFIED };
    for (const [status, response] of Object.entries(op.responses)) {
      if (!response || '$ref' in response) continue;
      const own = response.headers ?? {};
      response.headers = { ...Object.fromEntries(headersOf(op, method, status).map((n) => [n, headerRef(n)])), ...own };
    }
  }
}

const errorResponse = (status: ErrorStatus): ResponseObject => ({
  description: ERROR_TEXT[status],
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
});

/**
 * The failures every operation of a kind can answer, where its decorators do not list them: 400
 * (every query string is checked against the caps), 409 with an Idempotency-Key (reused with
 * another body, or its first request still running), 413 and 415 with a body.
 */
export function declareCommonStatuses(document: OpenAPIObject): void {
  for (const { op } of operationsOf(document)) {
    const add = (status: ErrorStatus) => (op.responses[String(status)] ??= errorResponse(status));
    add(400);
    if (isIdempotent(op)) add(409);
    if (op.requestBody) add(413);
    if (op.requestBody) add(415);
  }
}
