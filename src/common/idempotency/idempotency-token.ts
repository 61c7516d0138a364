import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { createHash } from 'node:crypto';

/** Set on the request by the idempotency interceptor when the caller sent `Idempotency-Key`. */
export type TokenRequest = { idempotencyToken?: string };

/**
 * A UUID fixed by (API key, Idempotency-Key, route and body): the same request always maps to
 * the same token. Resources that can carry it in a unique column (a lead's job id) make the
 * retry safe even if the idempotency record itself was lost between the write and its completion.
 */
export function idempotencyToken(apiKeyId: number, key: string, requestHash: string): string {
  const h = createHash('sha256').update(`${apiKeyId}\n${key}\n${requestHash}`).digest('hex');
  // Shaped as an RFC 4122 name-based UUID (version 5 bits, variant 10xx).
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The request's idempotency token, or undefined when no `Idempotency-Key` was sent. */
export const IdempotencyToken = createParamDecorator((_data: unknown, ctx: ExecutionContext): string | undefined => {
  return ctx.switchToHttp().getRequest<TokenRequest>().idempotencyToken;
});
