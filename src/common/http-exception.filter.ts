import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError, ErrorKind, assertUnreachable } from './domain-error';
import { fail } from './envelope';
import { isDatabaseUnavailable, isUnstorableText } from './pg-errors';

const STATUS_BY_KIND = (kind: ErrorKind): number => {
  switch (kind) {
    case 'validation':
      return HttpStatus.BAD_REQUEST;
    case 'unauthenticated':
      return HttpStatus.UNAUTHORIZED;
    case 'forbidden':
      return HttpStatus.FORBIDDEN;
    case 'not_found':
      return HttpStatus.NOT_FOUND;
    case 'conflict':
      return HttpStatus.CONFLICT;
    case 'payload_too_large':
      return HttpStatus.PAYLOAD_TOO_LARGE;
    case 'rate_limited':
      return HttpStatus.TOO_MANY_REQUESTS;
    case 'unavailable':
      return HttpStatus.SERVICE_UNAVAILABLE;
    default:
      return assertUnreachable(kind);
  }
};

/** One filter for the whole API: every failure leaves as the envelope with a meaningful status. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const requestId = host.switchToHttp().getRequest<{ requestId?: string }>().requestId;
    const tag = requestId ? ` [request ${requestId}]` : '';
    const { status, message, data, headers } = this.describe(exception);
    if (status >= 500 && status !== 503) {
      this.logger.error(`${exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)}${tag}`);
    } else if (status === 503) {
      this.logger.warn(`Database unavailable: ${exception instanceof Error ? exception.message : String(exception)}${tag}`);
    }
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(headers ?? {})) res.setHeader(k, v);
    res.status(status).json(fail(message, data));
  }

  private describe(exception: unknown): { status: number; message: string; data: unknown; headers?: Record<string, string> } {
    if (exception instanceof DomainError) {
      const data = exception.kind === 'validation' ? { errors: exception.fieldErrors } : [];
      return { status: STATUS_BY_KIND(exception.kind), message: exception.message, data };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === HttpStatus.NOT_FOUND) return { status, message: 'Not found', data: [] };
      if (exception.cause instanceof SyntaxError) return { status, message: 'Malformed JSON body', data: [] };
      if (status === HttpStatus.PAYLOAD_TOO_LARGE) return { status, message: 'Request body exceeds the 1 MiB limit', data: [] };
      const body = exception.getResponse();
      const msg = typeof body === 'string' ? body : ((body as { message?: unknown }).message ?? exception.message);
      return { status, message: Array.isArray(msg) ? msg.join('; ') : String(msg), data: [] };
    }
    // Errors raised by Express middleware (body parser) carry `type` and `status`.
    const raw = exception as { type?: string; status?: number; statusCode?: number } | undefined;
    if (raw?.type === 'entity.parse.failed') return { status: 400, message: 'Malformed JSON body', data: [] };
    if (raw?.type === 'entity.too.large') return { status: 413, message: 'Request body exceeds the 1 MiB limit', data: [] };
    if (raw?.type === 'encoding.unsupported' || raw?.type === 'charset.unsupported') {
      return { status: 415, message: 'Unsupported body encoding', data: [] };
    }
    const rawStatus = raw?.status ?? raw?.statusCode;
    if (typeof rawStatus === 'number' && rawStatus >= 400 && rawStatus < 500) {
      return { status: rawStatus, message: 'Bad request', data: [] };
    }
    if (isUnstorableText(exception)) return { status: 400, message: 'Text contains characters that cannot be stored (such as NUL)', data: [] };
    if (isDatabaseUnavailable(exception)) {
      return { status: 503, message: 'Database unavailable, retry later', data: [], headers: { 'Retry-After': '5' } };
    }
    return { status: 500, message: 'Internal error', data: [] };
  }
}
