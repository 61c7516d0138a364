import type { IncomingMessage, ServerResponse } from 'node:http';

/** Cache-Control without its no-cache directive; undefined when nothing else is left. */
export function withoutNoCache(cacheControl: string): string | undefined {
  const kept = cacheControl
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== '' && d.split('=')[0].trim().toLowerCase() !== 'no-cache');
  return kept.length ? kept.join(', ') : undefined;
}

/**
 * A conditional GET answers 304 to a matching If-None-Match, also under `Cache-Control: no-cache`.
 * In a request, no-cache asks caches on the way not to answer from storage without revalidating
 * with the origin (RFC 9111 5.2.1.4); this service is the origin, every answer is built afresh, and
 * a matching If-None-Match is that revalidation, so its answer is 304 (RFC 9110 13.1.2). Express's
 * freshness check treats a no-cache request as never fresh, and `fetch` adds no-cache to every
 * request carrying If-None-Match: so the directive is dropped before Express reads it, for GET and
 * HEAD requests with If-None-Match only.
 */
export function revalidateOnNoCache(req: IncomingMessage, _res: ServerResponse, next: () => void): void {
  const cacheControl = req.headers['cache-control'];
  if ((req.method === 'GET' || req.method === 'HEAD') && req.headers['if-none-match'] !== undefined && cacheControl !== undefined) {
    const rest = withoutNoCache(cacheControl);
    if (rest === undefined) delete req.headers['cache-control'];
    else req.headers['cache-control'] = rest;
  }
  next();
}
