import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Header carrying the id that ties a client's request to our logs. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The caller's request id when it is a sane token (a load balancer or the client set it), else
 * a new UUID. Anything else (too long, spaces, control characters) is replaced, never echoed,
 * so a header cannot inject text into log lines.
 */
export function requestIdFrom(header: unknown): string {
  const value: unknown = Array.isArray(header) ? header[0] : header;
  return typeof value === 'string' && ACCEPTABLE.test(value) ? value : randomUUID();
}

type RequestWithId = IncomingMessage & { requestId?: string };

/**
 * The request's id, decided once: the first caller (the request observer, or pino-http's
 * `genReqId`, whichever runs first) picks it and echoes it in the response; later callers get
 * the same value, so the access line, every log line of the request and the header agree.
 */
export function assignRequestId(req: RequestWithId, res: ServerResponse): string {
  if (req.requestId) return req.requestId;
  const id = requestIdFrom(req.headers['x-request-id']);
  req.requestId = id;
  if (!res.headersSent) res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
