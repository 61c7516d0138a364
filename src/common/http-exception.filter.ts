import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger, Optional } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource, TypeORMError } from 'typeorm';
import { DomainError, ErrorKind, assertUnreachable, summarise } from './domain-error';
import { fail } from './envelope';
import { DATABASE_SOURCE, databaseOutages } from './outage-log';
import { databaseBusyReason, databaseUnavailableReason, describeDatabaseError, inputRefusedByDatabase, scrubText, sqlState } from './pg-errors';

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
    case 'unsupported_media_type':
      return HttpStatus.UNSUPPORTED_MEDIA_TYPE;
    case 'rate_limited':
      return HttpStatus.TOO_MANY_REQUESTS;
    case 'unavailable':
      return HttpStatus.SERVICE_UNAVAILABLE;
    case 'gone':
      return HttpStatus.GONE;
    default:
      return assertUnreachable(kind);
  }
};

/** How a failure leaves (status, envelope, headers) and how it is logged. */
interface Outcome {
  status: number;
  message: string;
  data: unknown;
  headers?: Record<string, string>;
  /** refused: input the database refused (a DTO gap); unavailable / busy: the database's state. */
  cause?: 'refused' | 'unavailable' | 'busy';
}

/** Seconds a client should wait before retrying: a restart takes seconds, a lock timeout less. */
const RETRY_AFTER_UNAVAILABLE = '5';
const RETRY_AFTER_BUSY = '1';

/**
 * One filter for the whole API: every failure leaves as the envelope with a meaningful status. Its log lines carry the request
 * id; a domain 4xx logs its status and code, a database error names and codes only (SQLSTATE, constraint, table, column,
 * statement kind): never PostgreSQL's message or detail, which quote the refused value, nor the query's parameters.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  /** The DataSource answers the outage probe (`SELECT 1`); absent only outside the app module. */
  constructor(@Optional() private readonly ds?: DataSource) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const requestId = host.switchToHttp().getRequest<{ requestId?: string }>().requestId;
    const outcome = this.describe(exception);
    this.report(exception, outcome, requestId ? ` [request ${requestId}]` : '');
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(outcome.headers ?? {})) res.setHeader(k, v);
    res.status(outcome.status).json(fail(outcome.message, outcome.data));
  }

  private report(exception: unknown, { status, cause }: Outcome, tag: string): void {
    if (cause === 'unavailable') {
      // One line when the outage starts and one when it ends (OutageLog), not one per request.
      const ds = this.ds;
      databaseOutages.failed(DATABASE_SOURCE, databaseUnavailableReason(exception) ?? 'unknown', ds ? () => ds.query('SELECT 1') : undefined);
    } else if (cause === 'busy') {
      this.logger.warn(`database busy: ${describeDatabaseError(exception)}${tag}`);
    } else if (cause === 'refused') {
      // A 400 for the client, but a value our input checks should have refused first.
      this.logger.warn(`input refused by the database: ${describeDatabaseError(exception)}${tag}`);
    } else if (status < 500 && exception instanceof DomainError) {
      // The code only (a catalogue constant): messages and field errors can quote the client's values.
      this.logger.log(`${status} ${exception.code}${tag}`);
    } else if (status >= 500 && status !== 503) {
      // A 503 otherwise is a known condition a domain error or Nest exception states itself.
      this.logger.error(`${describeUnexpected(exception)}${tag}`);
    }
  }

  private describe(exception: unknown): Outcome {
    if (exception instanceof DomainError) {
      const data = exception.kind === 'validation' ? { errors: exception.fieldErrors } : [];
      return { status: STATUS_BY_KIND(exception.kind), message: exception.message, data };
    }
    if (exception instanceof HttpException) {
      const status: HttpStatus = exception.getStatus();
      if (status === HttpStatus.NOT_FOUND) return { status, message: 'Not found', data: [] };
      if (exception.cause instanceof SyntaxError) return { status, message: 'Malformed JSON body', data: [] };
      if (status === HttpStatus.PAYLOAD_TOO_LARGE) return { status, message: 'Request body exceeds the limit of this route', data: [] };
      const body = exception.getResponse();
      const msg = typeof body === 'string' ? body : ((body as { message?: unknown }).message ?? exception.message);
      return { status, message: Array.isArray(msg) ? msg.join('; ') : typeof msg === 'string' ? msg : exception.message, data: [] };
    }
    // Errors raised by Express middleware (body parser) carry `type` and `status`.
    const raw = exception as { type?: string; status?: number; statusCode?: number } | undefined;
    if (raw?.type === 'entity.parse.failed') return { status: 400, message: 'Malformed JSON body', data: [] };
    if (raw?.type === 'entity.too.large') return { status: 413, message: 'Request body exceeds the limit of this route', data: [] };
    if (raw?.type === 'encoding.unsupported' || raw?.type === 'charset.unsupported') {
      return { status: 415, message: 'Unsupported body encoding', data: [] };
    }
    const rawStatus = raw?.status ?? raw?.statusCode;
    if (typeof rawStatus === 'number' && rawStatus >= 400 && rawStatus < 500) {
      return { status: rawStatus, message: 'Bad request', data: [] };
    }
    return this.describeDatabase(exception) ?? { status: 500, message: 'Internal error', data: [] };
  }

  /** Database errors with a known cause: input it refused (400), unreachable or busy (503 with Retry-After). */
  private describeDatabase(exception: unknown): Outcome | null {
    const refused = inputRefusedByDatabase(exception);
    if (refused) return { status: 400, message: summarise([refused]), data: { errors: [refused] }, cause: 'refused' };
    if (databaseUnavailableReason(exception)) {
      return { status: 503, message: 'Database unavailable, retry later', data: [], headers: { 'Retry-After': RETRY_AFTER_UNAVAILABLE }, cause: 'unavailable' };
    }
    if (databaseBusyReason(exception)) {
      return { status: 503, message: 'Database busy, retry later', data: [], headers: { 'Retry-After': RETRY_AFTER_BUSY }, cause: 'busy' };
    }
    return null;
  }
}

/**
 * An unexpected failure for the log: a database error as names and codes; any other error with its
 * stack, the message scrubbed of what could be a value (libraries sometimes quote their input).
 */
function describeUnexpected(exception: unknown): string {
  if (exception instanceof TypeORMError || sqlState(exception)) return describeDatabaseError(exception);
  if (!(exception instanceof Error)) return `non-error thrown: ${typeof exception}`;
  const frames = (exception.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return [`${exception.name}: ${scrubText(exception.message)}`, ...frames].join('\n');
}
