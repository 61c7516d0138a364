import { StreamableFile } from '@nestjs/common';
import type { ExpressAdapter } from '@nestjs/platform-express';
import { isCompleteEnvelope, ok } from './envelope';

/** What a handler's result becomes on the wire: a failure envelope as it is, else the success envelope ("nothing" is `[]`, API.md). */
export function successBody(data: unknown): unknown {
  return isCompleteEnvelope(data) ? data : ok(data === undefined || data === null ? [] : data);
}

type Reply = ExpressAdapter['reply'];

/**
 * Wraps every handler's result in the success envelope where Nest writes it (the HTTP adapter's
 * `reply`), instead of a global interceptor: an interceptor puts each request of every route
 * through Nest's rxjs pipeline (defer, mergeAll, a ReplaySubject, a client-disconnect watch,
 * lastValueFrom), about a tenth of a lead read's CPU. The envelope is the same: the interceptor saw
 * what route interceptors (idempotency) hand back, and so does `reply`. Left as they are: an
 * error status (Nest's own exception replies; the global filter writes its envelope itself) and
 * a stream.
 */
export function replyWithEnvelope(adapter: ExpressAdapter): void {
  const reply: Reply = adapter.reply.bind(adapter);
  adapter.reply = (response, body, statusCode): unknown => {
    const wrap = !(statusCode !== undefined && statusCode >= 400) && !(body instanceof StreamableFile);
    return reply(response, wrap ? successBody(body) : body, statusCode) as unknown;
  };
}
