/**
 * Reading a PostgreSQL error however it reaches us (pg's DatabaseError, TypeORM's QueryFailedError
 * around it, a `cause` or an AggregateError): its fields, its class, and SQLSTATE condition names.
 * pg-errors.ts classifies and describes errors with these.
 */

/** The fields of a PostgreSQL error we read; pg's DatabaseError has them, QueryFailedError copies them. */
export interface PgFields {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  severity?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  dataType?: unknown;
  where?: unknown;
  query?: unknown;
}

const MAX_CHAIN = 5;

/** `err` and the errors it wraps (TypeORM's driverError, `cause`, an AggregateError's errors), nearest first. */
export function chain(err: unknown, depth = 0): PgFields[] {
  if (!err || typeof err !== 'object' || depth >= MAX_CHAIN) return [];
  const e = err as PgFields & { driverError?: unknown; cause?: unknown };
  const inner = [e.driverError, e.cause, ...(err instanceof AggregateError ? (err.errors as unknown[]) : [])];
  return [e, ...inner.flatMap((x) => chain(x, depth + 1))];
}

/** The nearest error in the chain that carries a SQLSTATE (five characters, e.g. `23505`). */
export function pgError(err: unknown): PgFields | null {
  return chain(err).find((e) => typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) ?? null;
}

/** A field's value when it is a non-empty string. */
export function text(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The class of an error: its constructor's name (pg's DatabaseError is named `error`), else `name`. */
export function className(e: object): string {
  const ctor = e.constructor?.name;
  return ctor && ctor !== 'Error' && ctor !== 'Object' ? ctor : (text((e as PgFields).name) ?? 'Error');
}

/** Condition names of the SQLSTATEs this service meets, for log lines (PostgreSQL appendix A). */
const CONDITION: Record<string, string> = {
  '22001': 'string_data_right_truncation',
  '22003': 'numeric_value_out_of_range',
  '22007': 'invalid_datetime_format',
  '22008': 'datetime_field_overflow',
  '22012': 'division_by_zero',
  '22021': 'character_not_in_repertoire',
  '22023': 'invalid_parameter_value',
  '22P02': 'invalid_text_representation',
  '22P05': 'untranslatable_character',
  '23502': 'not_null_violation',
  '23503': 'foreign_key_violation',
  '23505': 'unique_violation',
  '23514': 'check_violation',
  '25P02': 'in_failed_sql_transaction',
  '28P01': 'invalid_password',
  '3D000': 'invalid_catalog_name',
  '40001': 'serialization_failure',
  '40P01': 'deadlock_detected',
  '42501': 'insufficient_privilege',
  '42601': 'syntax_error',
  '42703': 'undefined_column',
  '42P01': 'undefined_table',
  '53300': 'too_many_connections',
  '55P03': 'lock_not_available',
  '57014': 'query_canceled',
  '57P01': 'admin_shutdown',
  '57P02': 'crash_shutdown',
  '57P03': 'cannot_connect_now',
  '08000': 'connection_exception',
  '08001': 'sqlclient_unable_to_establish_sqlconnection',
  '08003': 'connection_does_not_exist',
  '08006': 'connection_failure',
};

/** The SQLSTATE with its condition name when known (`23505 unique_violation`). */
export function stateLabel(code: string): string {
  return CONDITION[code] ? `${code} ${CONDITION[code]}` : code;
}

/** `value too long for type character varying(255)` → `character varying(255)`, with any quoted value removed first. */
export function typeNamed(message: string | undefined): string | undefined {
  const unquoted = (message ?? '').replace(/".*"/s, '');
  return /for type ([a-z][a-z0-9 _(),]*[a-z0-9)])/i.exec(unquoted)?.[1];
}
