import { createHash } from 'node:crypto';
import type { FieldError } from './domain-error';
import { chain, className, pgError, type PgFields, stateLabel, text, typeNamed } from './pg-error-fields';

/**
 * Classifies errors from PostgreSQL, pg and TypeORM and describes them for logs without their values: PostgreSQL's message
 * or detail can quote the refused value and a TypeORM QueryFailedError carries the parameters, so neither is ever logged or
 * answered; the SQLSTATE, constraint, table, column and type names are.
 */

/** The SQLSTATE of `err` or of the error it wraps. */
export function sqlState(err: unknown): string | undefined {
  return text(pgError(err)?.code);
}

const UNIQUE_VIOLATION = '23505';

/** A unique violation, optionally of one named constraint or index (TypeORM's QueryFailedError or a raw pg error). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = pgError(err);
  return e?.code === UNIQUE_VIOLATION && (constraint === undefined || e.constraint === constraint);
}

const FOREIGN_KEY_VIOLATION = '23503';

/** A foreign key violation: a row names a referenced row that does not exist (or no longer does). */
export function isForeignKeyViolation(err: unknown): boolean {
  return pgError(err)?.code === FOREIGN_KEY_VIOLATION;
}

/**
 * Text PostgreSQL cannot store (a NUL byte, an invalid sequence). Input checks refuse these
 * first; this is the safety net, so such input is a 400 wherever it slips through.
 */
export function isUnstorableText(err: unknown): boolean {
  const code = sqlState(err);
  return code === '22021' || code === '22P05';
}

// ---------------------------------------------------------------------------------------------
// Unavailable or busy: 503 with Retry-After

/** SQLSTATEs meaning the server cannot serve us now: shutting down, starting, out of connection slots. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket-level failures (Node's error codes). */
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/**
 * TypeORM's errors for a query runner whose connection died under it: pg drops the client on a
 * connection error, TypeORM releases the runner, and the transaction's next statement (or its
 * rollback) throws these instead of the connection error.
 */
const UNAVAILABLE_CLASSES = new Set(['QueryRunnerProviderAlreadyReleasedError', 'QueryRunnerAlreadyReleasedError']);
/** pg and pg-pool raise these as plain Errors, with no code; the label is what we log. */
const UNAVAILABLE_MESSAGES: [RegExp, string][] = [
  [/Connection terminated/i, 'connection terminated'],
  [/timeout exceeded when trying to connect/i, 'pool connect timeout'],
  [/Client was closed and is not queryable/i, 'client closed'],
  [/Client has encountered a connection error/i, 'client connection error'],
  [/Cannot use a pool after calling end on the pool/i, 'pool ended'],
  [/connect ECONNREFUSED/i, 'ECONNREFUSED'],
  [/the database system is (starting up|shutting down|in recovery mode)/i, 'database starting or stopping'],
];

function unavailableReasonOf(e: PgFields): string | null {
  const code = text(e.code);
  if (code && (UNAVAILABLE_STATES.has(code) || code.startsWith('08'))) return stateLabel(code);
  if (code && UNAVAILABLE_SOCKET_CODES.has(code)) return code;
  // A FATAL from the server (connections refused for the database, authentication) ends the session.
  if (e.severity === 'FATAL') return code ? `FATAL ${stateLabel(code)}` : 'FATAL';
  const name = className(e);
  if (UNAVAILABLE_CLASSES.has(name)) return name;
  const message = text(e.message);
  if (message) for (const [pattern, label] of UNAVAILABLE_MESSAGES) if (pattern.test(message)) return label;
  return null;
}

/**
 * Why the database is unreachable, as a short label safe to log (`57P01 admin_shutdown`,
 * `ECONNREFUSED`, `QueryRunnerAlreadyReleasedError`, `pool connect timeout`), or null when
 * `err` is not a connection-level failure. Looks through TypeORM's driverError and `cause`.
 */
export function databaseUnavailableReason(err: unknown): string | null {
  for (const e of chain(err)) {
    const reason = unavailableReasonOf(e);
    if (reason) return reason;
  }
  return null;
}

/** Connection-level failures of PostgreSQL (refused, reset, shutting down, pool exhausted): the service is unavailable. */
export function isDatabaseUnavailable(err: unknown): boolean {
  return databaseUnavailableReason(err) !== null;
}

/**
 * A statement the server gave up on while it is otherwise fine: lock_timeout (55P03),
 * statement_timeout (57014), a deadlock or serialization failure. Retrying shortly is right.
 */
const BUSY_STATES = new Set(['55P03', '57014', '40001', '40P01']);

/** The SQLSTATE label when `err` is a busy-database error (see BUSY_STATES), else null. */
export function databaseBusyReason(err: unknown): string | null {
  const code = sqlState(err);
  return code && BUSY_STATES.has(code) ? stateLabel(code) : null;
}

// ---------------------------------------------------------------------------------------------
// Input the database refused: 400

/**
 * The column bind parameter `$n` goes to, when the statement says so plainly:
 * `INSERT INTO t (a, b) VALUES ($1, $2)` or `a = $1`.
 */
function columnOfParameter(n: number, query: string): string | undefined {
  const sql = query.replace(/\s+/g, ' ');
  const insert = /INSERT INTO [\w."]+ ?\(([^()]*)\) VALUES ?\(([^()]*)\)/i.exec(sql);
  if (insert) {
    const columns = insert[1].split(',').map((c) => c.trim().replace(/"/g, ''));
    const at = insert[2].split(',').findIndex((v) => new RegExp(`^\\s*\\$${n}(::[\\w ]+)?\\s*$`).test(v));
    if (at >= 0 && columns[at]) return columns[at];
  }
  return new RegExp(`"?(\\w+)"? = \\$${n}(?![0-9])`).exec(sql)?.[1];
}

/**
 * Which bind parameter PostgreSQL refused, without reading a value out of the error: the one a failed conversion names in its
 * context (`parameter $3 = ...`, parsed, never repeated), or for `value too long for type character varying(45)` the only
 * string parameter longer than 45 characters, when exactly one is.
 */
function refusedParameter(e: PgFields, type: string | undefined, parameters: unknown): number | undefined {
  const named = text(e.where) && /\bparameter \$(\d+)\b/.exec(text(e.where)!)?.[1];
  if (named) return Number(named);
  const limit = e.code === '22001' && type ? /^character(?: varying)?\((\d+)\)$/.exec(type)?.[1] : undefined;
  if (!limit || !Array.isArray(parameters)) return undefined;
  const tooLong = parameters.flatMap((p, i) => (typeof p === 'string' && [...p].length > Number(limit) ? [i + 1] : []));
  return tooLong.length === 1 ? tooLong[0] : undefined;
}

function refusalMessage(code: string, type: string | undefined): string {
  const ofType = type ? ` (${type})` : '';
  const limit = type && /^character(?: varying)?\((\d+)\)$/.exec(type)?.[1];
  if (code === '22001') return limit ? `is longer than ${limit} characters` : `is too long${ofType}`;
  if (code === '22003') return `is out of range${ofType}`;
  if (code === '22007' || code === '22008') return `is not a valid date/time${ofType}`;
  if (code === '22021' || code === '22P05') return 'contains characters that cannot be stored (such as NUL)';
  if (code === '22P02') return type ? `is not a valid ${type} value` : 'is not a valid value';
  return `is not an acceptable value${ofType}`;
}

/**
 * A value from the request that the database refused, as a field error for a 400 (the column when known, never the value), or
 * null: data exceptions (class 22), NULL for NOT NULL (23502: validators let `null` through) and CHECK violations (23514).
 * Foreign-key and unique violations are not here: services turn those they expect into domain errors, any other is a 500.
 */
export function inputRefusedByDatabase(err: unknown): FieldError | null {
  const e = pgError(err);
  const code = text(e?.code);
  if (!e || !code) return null;
  const failed: (PgFields & { parameters?: unknown }) | undefined = chain(err).find((x) => text(x.query));
  const type = text(e.dataType) ?? typeNamed(text(e.message));
  const n = code.startsWith('22') && failed ? refusedParameter(e, type, failed.parameters) : undefined;
  const column = text(e.column) ?? (n ? columnOfParameter(n, text(failed?.query)!) : undefined);
  if (code.startsWith('22')) return { field: column ?? '', message: refusalMessage(code, type) };
  if (code === '23502') return { field: column ?? '', message: 'must not be null' };
  if (code === '23514') {
    const constraint = text(e.constraint);
    // PostgreSQL names a one-column CHECK `<table>_<column>_check`.
    const prefix = `${text(e.table)}_`;
    const named = constraint?.startsWith(prefix) && constraint.endsWith('_check') ? constraint.slice(prefix.length, -'_check'.length) : undefined;
    return { field: column ?? named ?? '', message: `is not allowed${constraint ? ` (rule ${constraint})` : ''}` };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Log lines

/**
 * What a statement does, for a log line: its leading keyword and first target table
 * (`INSERT INTO lead`, `WITH INSERT INTO lead`, `SELECT FROM call_order`), with a short hash of
 * the whole text to tell statements apart. Never the text itself: it may hold literals.
 */
export function statementKind(sql: string): string {
  const s = sql.replace(/\s+/g, ' ').trim();
  const verb = (/^[A-Za-z]+/.exec(s)?.[0] ?? '?').toUpperCase();
  const target = /\b(INSERT INTO|UPDATE|DELETE FROM|FROM) ("?[A-Za-z_][\w.]*"?)/i.exec(s);
  const targetKind = target ? `${target[1].toUpperCase()} ${target[2].replace(/"/g, '')}` : '';
  const kind = !target ? verb : targetKind.startsWith(verb) ? targetKind : `${verb} ${targetKind}`;
  return `${kind} #${createHash('sha256').update(sql).digest('hex').slice(0, 8)}`;
}

/**
 * Free text for a log line with what could be a value taken out: quoted strings, the parts of `Key (x)=(y)`, e-mail addresses,
 * digit runs long enough to be a phone or an id. For messages of libraries we do not control; our own lines hold names and codes.
 */
export function scrubText(message: string, max = 200): string {
  const scrubbed = message
    .replace(/"[^"]*"|'[^']*'|`[^`]*`/g, '"…"')
    .replace(/\([^()]*\)=\([^()]*\)/g, '(…)=(…)')
    .replace(/\([^()]*\)\s*$/g, '(…)')
    .replace(/[^\s@"'<>()]+@[^\s@"'<>()]+/g, '<e-mail>')
    .replace(/\+?\d[\d\s-]{5,}\d/g, '<number>');
  return scrubbed.length > max ? `${scrubbed.slice(0, max)}…` : scrubbed;
}

/**
 * A database error for a log line: class, SQLSTATE with its condition name, constraint, table,
 * column, type and statement kind: names and codes, never the message, detail or parameters.
 * An error without a SQLSTATE (a pg or pool failure) shows its class and scrubbed message.
 */
export function describeDatabaseError(err: unknown): string {
  if (!err || typeof err !== 'object') return `non-error thrown: ${typeof err}`;
  const top = err as PgFields;
  const name = className(err);
  const e = pgError(err);
  const code = text(e?.code);
  const query = chain(err)
    .map((x) => text(x.query))
    .find(Boolean);
  const parts = [name];
  if (code && e) {
    parts.push(stateLabel(code));
    for (const key of ['constraint', 'table', 'column', 'dataType'] as const) {
      const v = text(e[key]);
      if (v) parts.push(`${key}=${v}`);
    }
    const type = !text(e.dataType) && code.startsWith('22') ? typeNamed(text(e.message)) : undefined;
    if (type) parts.push(`type=${type}`);
  } else {
    const reason = databaseUnavailableReason(err);
    parts.push(reason ?? scrubText(text(top.message) ?? ''));
  }
  if (query) parts.push(`in ${statementKind(query)}`);
  return parts.filter(Boolean).join(' ');
}
