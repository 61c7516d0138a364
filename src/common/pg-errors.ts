/** PostgreSQL error codes a repository may want to turn into domain errors. */
const UNIQUE_VIOLATION = '23505';

function pgError(err: unknown): { code?: unknown; constraint?: unknown } | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as { code?: unknown; constraint?: unknown; driverError?: unknown };
  if (e.code !== undefined) return e;
  return e.driverError && typeof e.driverError === 'object' ? (e.driverError as { code?: unknown; constraint?: unknown }) : null;
}

/** A unique violation, optionally of one named constraint or index (TypeORM's QueryFailedError or a raw pg error). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = pgError(err);
  return e?.code === UNIQUE_VIOLATION && (constraint === undefined || e.constraint === constraint);
}

/**
 * Text PostgreSQL cannot store (a NUL byte, an invalid sequence). Input checks refuse these
 * first; this is the safety net, so such input is a 400 wherever it slips through.
 */
export function isUnstorableText(err: unknown): boolean {
  const code = pgError(err)?.code;
  return code === '22021' || code === '22P05';
}

/** Connection-level failures of PostgreSQL (refused, reset, shutting down): the service is unavailable. */
const DB_UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '53300']);

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; severity?: unknown };
  // A FATAL from the server (e.g. connections refused for the database) is unavailability too.
  if (e.severity === 'FATAL') return true;
  if (typeof e.code === 'string' && (DB_UNAVAILABLE_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  if (typeof e.message === 'string' && /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(e.message)) {
    return true;
  }
  if (err instanceof AggregateError) return err.errors.some(isDatabaseUnavailable);
  return isDatabaseUnavailable(e.driverError) || isDatabaseUnavailable(e.cause);
}
