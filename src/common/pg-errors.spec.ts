import { Client, DatabaseError } from 'pg';
import { QueryFailedError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import {
  databaseBusyReason,
  databaseUnavailableReason,
  describeDatabaseError,
  inputRefusedByDatabase,
  isDatabaseUnavailable,
  isUniqueViolation,
  scrubText,
  sqlState,
  statementKind,
} from './pg-errors';

/** A DatabaseError as pg builds it from the server's ErrorResponse (fields copied from real PostgreSQL 15 answers). */
function pgError(message: string, fields: Partial<DatabaseError>): DatabaseError {
  return Object.assign(new DatabaseError(message, message.length, 'error'), { severity: 'ERROR', ...fields });
}

const ZONE_IP = `fe80::1%${'a'.repeat(100)}`;
const LEAD_INSERT = `WITH ins AS (
  INSERT INTO lead (order_id, name, phone, ip) VALUES ($1, $2, $3, $4)
  ON CONFLICT (order_id, job_id) WHERE job_id IS NOT NULL DO NOTHING RETURNING id
) SELECT id FROM ins`;

function failed(query: string, parameters: unknown[], driverError: DatabaseError | Error): QueryFailedError {
  return new QueryFailedError(query, parameters, driverError);
}

const badInet = () =>
  failed(
    LEAD_INSERT,
    [1, 'Анна Петрова', '+79161234567', ZONE_IP],
    pgError(`invalid input syntax for type inet: "${ZONE_IP}"`, { code: '22P02', where: "unnamed portal parameter $4 = '...'", routine: 'network_in' }),
  );

describe('inputRefusedByDatabase', () => {
  it('turns an invalid inet into a field error naming the column, never the value', () => {
    const refused = inputRefusedByDatabase(badInet());
    expect(refused).toEqual({ field: 'ip', message: 'is not a valid inet value' });
    expect(JSON.stringify(refused)).not.toContain('fe80');
  });

  it.each([
    ['22001', 'value too long for type character varying(255)', undefined, 'is longer than 255 characters'],
    ['22001', 'value too long for type bit varying(3)', undefined, 'is too long (bit varying(3))'],
    ['22003', 'value "99999999999" is out of range for type integer', "unnamed portal parameter $2 = '...'", 'is out of range (integer)'],
    ['22007', 'invalid input syntax for type timestamp with time zone: "not a date"', undefined, 'is not a valid date/time (timestamp with time zone)'],
    ['22008', 'date/time field value out of range: "2026-13-45"', undefined, 'is not a valid date/time'],
    ['22021', 'invalid byte sequence for encoding "UTF8": 0x00', undefined, 'contains characters that cannot be stored (such as NUL)'],
    ['22012', 'division by zero', undefined, 'is not an acceptable value'],
  ])('maps data exception %s to a 400 message without the value', (code, message, where, expected) => {
    const err = failed('UPDATE lead SET name = $1, priority = $2 WHERE id = $3', ['x', '99999999999', 1], pgError(message, { code, where }));
    const refused = inputRefusedByDatabase(err)!;
    expect(refused.message).toBe(expected);
    expect(refused.message).not.toMatch(/99999999999|not a date|2026-13-45/);
    if (where) expect(refused.field).toBe('priority');
  });

  it('names the column of a too-long value when exactly one parameter is longer than the limit', () => {
    const tooLong = () => pgError('value too long for type character varying(45)', { code: '22001', routine: 'varchar' });
    const query = 'INSERT INTO lead (order_id, name, phone, ip) VALUES ($1, $2, $3, $4)';
    expect(inputRefusedByDatabase(failed(query, [1, 'Анна', '+79161234567', ZONE_IP], tooLong()))).toEqual({
      field: 'ip',
      message: 'is longer than 45 characters',
    });
    // Two candidates: no guess.
    expect(inputRefusedByDatabase(failed(query, [1, 'x'.repeat(46), '+79161234567', ZONE_IP], tooLong()))).toEqual({
      field: '',
      message: 'is longer than 45 characters',
    });
  });

  it('maps a NULL for a NOT NULL column and a CHECK violation, naming the column', () => {
    const notNull = pgError('null value in column "utc_offset" of relation "lead" violates not-null constraint', {
      code: '23502',
      column: 'utc_offset',
      table: 'lead',
      detail: 'Failing row contains (1, +79161234567, Анна).',
    });
    expect(inputRefusedByDatabase(notNull)).toEqual({ field: 'utc_offset', message: 'must not be null' });
    const check = pgError('new row for relation "call" violates check constraint "call_total_duration_seconds_check"', {
      code: '23514',
      table: 'call',
      constraint: 'call_total_duration_seconds_check',
      detail: 'Failing row contains (...).',
    });
    expect(inputRefusedByDatabase(failed('INSERT INTO call (a) VALUES ($1)', [-1], check))).toEqual({
      field: 'total_duration_seconds',
      message: 'is not allowed (rule call_total_duration_seconds_check)',
    });
  });

  it('leaves unique and foreign-key violations, outages and other errors alone', () => {
    expect(inputRefusedByDatabase(pgError('duplicate key value violates unique constraint "x"', { code: '23505' }))).toBeNull();
    expect(inputRefusedByDatabase(pgError('insert or update violates foreign key constraint "x"', { code: '23503' }))).toBeNull();
    expect(inputRefusedByDatabase(pgError('terminating connection due to administrator command', { code: '57P01', severity: 'FATAL' }))).toBeNull();
    expect(inputRefusedByDatabase(new TypeError('x is undefined'))).toBeNull();
    expect(inputRefusedByDatabase(undefined)).toBeNull();
  });
});

describe('isDatabaseUnavailable', () => {
  it.each([
    [
      'TypeORM: provider released (a transaction whose connection died)',
      new QueryRunnerProviderAlreadyReleasedError(),
      'QueryRunnerProviderAlreadyReleasedError',
    ],
    ['TypeORM: runner released', new QueryRunnerAlreadyReleasedError(), 'QueryRunnerAlreadyReleasedError'],
    ['pg: connection terminated', new Error('Connection terminated unexpectedly'), 'connection terminated'],
    ['pg: connection terminated, wrapped by TypeORM', failed('SELECT 1', [], new Error('Connection terminated unexpectedly')), 'connection terminated'],
    ['pg-pool: connect timeout', new Error('timeout exceeded when trying to connect'), 'pool connect timeout'],
    ['pg: client closed', new Error('Client was closed and is not queryable'), 'client closed'],
    [
      'admin shutdown (pg_terminate_backend, restart)',
      pgError('terminating connection due to administrator command', { code: '57P01', severity: 'FATAL' }),
      '57P01 admin_shutdown',
    ],
    ['starting up', pgError('the database system is starting up', { code: '57P03', severity: 'FATAL' }), '57P03 cannot_connect_now'],
    ['08006 wrapped by TypeORM', failed('SELECT 1', [], pgError('connection failure', { code: '08006' })), '08006 connection_failure'],
    ['too many connections', pgError('sorry, too many clients already', { code: '53300', severity: 'FATAL' }), '53300 too_many_connections'],
    ['an error whose cause is unavailability', new Error('job failed', { cause: new Error('Connection terminated unexpectedly') }), 'connection terminated'],
  ])('%s', (_label, err, reason) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(databaseUnavailableReason(err)).toBe(reason);
  });

  it('recognises a real ECONNREFUSED from pg', async () => {
    const client = new Client({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2000 });
    const err = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(databaseUnavailableReason(err)).toMatch(/ECONNREFUSED/);
  });

  it.each([
    ['a unique violation', pgError('duplicate key value violates unique constraint "x"', { code: '23505' })],
    ['a data exception', badInet()],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a lock timeout (busy, not unreachable)', pgError('canceling statement due to lock timeout', { code: '55P03' })],
    ['nothing', null],
  ])('is false for %s', (_label, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });

  it('survives a cyclic cause chain', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    a.cause = a;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});

describe('databaseBusyReason', () => {
  it.each([
    ['55P03', 'canceling statement due to lock timeout', '55P03 lock_not_available'],
    ['57014', 'canceling statement due to statement timeout', '57014 query_canceled'],
    ['40P01', 'deadlock detected', '40P01 deadlock_detected'],
    ['40001', 'could not serialize access due to concurrent update', '40001 serialization_failure'],
  ])('%s is busy', (code, message, reason) => {
    expect(databaseBusyReason(failed('UPDATE lead SET name = $1', ['x'], pgError(message, { code })))).toBe(reason);
  });

  it('is null for anything else', () => {
    expect(databaseBusyReason(pgError('x', { code: '23505' }))).toBeNull();
    expect(databaseBusyReason(new Error('Connection terminated unexpectedly'))).toBeNull();
  });
});

describe('isUniqueViolation and sqlState', () => {
  it('read the code through TypeORM and the cause chain', () => {
    const unique = pgError('duplicate key value violates unique constraint "app_user_email_idx"', {
      code: '23505',
      constraint: 'app_user_email_idx',
      detail: 'Key (lower(email))=(anna@example.com) already exists.',
    });
    expect(isUniqueViolation(failed('INSERT INTO app_user (email) VALUES ($1)', ['anna@example.com'], unique), 'app_user_email_idx')).toBe(true);
    expect(isUniqueViolation(unique, 'other')).toBe(false);
    expect(sqlState(new Error('outer', { cause: unique }))).toBe('23505');
    expect(sqlState(new Error('Connection terminated unexpectedly'))).toBeUndefined();
  });
});

describe('describeDatabaseError', () => {
  it('names class, SQLSTATE, constraint and statement, never the values, message or detail', () => {
    const unique = pgError('duplicate key value violates unique constraint "api_key_name_active_idx"', {
      code: '23505',
      table: 'api_key',
      constraint: 'api_key_name_active_idx',
      detail: 'Key (name)=(crm) already exists.',
    });
    const line = describeDatabaseError(failed('INSERT INTO api_key (name, prefix, key_hash) VALUES ($1, $2, $3)', ['crm', 'cck_AbCd', 'f00dfeed'], unique));
    expect(line).toMatch(/^QueryFailedError 23505 unique_violation constraint=api_key_name_active_idx table=api_key in INSERT INTO api_key #[0-9a-f]{8}$/);
    expect(line).not.toMatch(/crm|cck_|f00dfeed|Key \(/);
  });

  it('gives the type of a data exception but not the value', () => {
    const line = describeDatabaseError(badInet());
    expect(line).toMatch(/22P02 invalid_text_representation type=inet in WITH INSERT INTO lead #/);
    expect(line).not.toMatch(/fe80|Анна|7916/);
  });

  it('describes pg errors without a SQLSTATE by a fixed label, and others with the message scrubbed', () => {
    expect(describeDatabaseError(new Error('Connection terminated unexpectedly'))).toBe('Error connection terminated');
    expect(describeDatabaseError(new QueryRunnerProviderAlreadyReleasedError())).toBe(
      'QueryRunnerProviderAlreadyReleasedError QueryRunnerProviderAlreadyReleasedError',
    );
    expect(describeDatabaseError(new Error('bad value "anna@example.com" for +79161234567'))).toBe('Error bad value "…" for <number>');
  });
});

describe('statementKind', () => {
  it.each([
    ['INSERT INTO lead (a) VALUES ($1)', 'INSERT INTO lead'],
    ['  update "lead" SET name = $1 WHERE id = $2', 'UPDATE lead'],
    ['DELETE FROM queue_consumer WHERE instance_id = $1', 'DELETE FROM queue_consumer'],
    ['SELECT id, phone FROM lead l JOIN call_order o ON o.id = l.order_id', 'SELECT FROM lead'],
    ['SELECT 1', 'SELECT'],
    ["SELECT * FROM lead WHERE phone = '+79161234567'", 'SELECT FROM lead'],
  ])('%s → %s', (sql, kind) => {
    expect(statementKind(sql)).toMatch(new RegExp(`^${kind} #[0-9a-f]{8}$`));
  });
});

describe('scrubText', () => {
  it('takes out quoted values, key details, e-mails and phone-like numbers', () => {
    expect(scrubText('Key (email)=(anna@example.com) already exists')).toBe('Key (…)=(…) already exists');
    expect(scrubText('invalid input syntax for type inet: "fe80::1%zzz"')).toBe('invalid input syntax for type inet: "…"');
    expect(scrubText('mail to anna.petrova@example.com failed')).toBe('mail to <e-mail> failed');
    expect(scrubText('call +7 916 123-45-67 now')).toBe('call <number> now');
    expect(scrubText('x'.repeat(300))).toHaveLength(201);
  });
});
