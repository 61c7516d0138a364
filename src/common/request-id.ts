import { randomUUID } from 'node:crypto';

/** Header carrying the id that ties a client's request to our logs. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The caller's request id when it is a sane token (a load balancer or the client set it), else
 * a new UUID. Anything else (too long, spaces, control characters) is replaced, never echoed,
 * so a header cannot inject text into log lines.
 */
export function requestIdFrom(header: unknown): string {
  const value = Array.isArray(header) ? header[0] : header;
  return typeof value === 'string' && ACCEPTABLE.test(value) ? value : randomUUID();
}
