import { blankQuotedValues, ServerLogFilter, serverLogLines } from './postgres-log';

const at = '2026-11-28 01:35:01.150 UTC [20044]';

describe('serverLogLines', () => {
  it('keeps the ERROR line of a unique-key conflict and drops its DETAIL and STATEMENT, values and all', () => {
    const chunk = [
      `${at} ERROR:  duplicate key value violates unique constraint "api_key_name_active_idx"`,
      `${at} DETAIL:  Key (name)=(crm-secret-name) already exists.`,
      `${at} STATEMENT:  INSERT INTO "api_key"("name", "key_prefix") VALUES ($1, $2)`,
      `\tRETURNING "id"`,
      '',
    ].join('\n');
    expect(serverLogLines(chunk)).toEqual([`${at} ERROR:  duplicate key value violates unique constraint "api_key_name_active_idx"`]);
  });

  it('keeps FATAL and PANIC lines; drops LOG, WARNING, HINT, CONTEXT, QUERY lines and lines without the prefix', () => {
    const chunk = [
      `${at} LOG:  database system is ready to accept connections`,
      `${at} FATAL:  terminating connection due to administrator command`,
      `${at} WARNING:  there is no transaction in progress`,
      `${at} HINT:  Use a value like "+79161234567".`,
      `${at} CONTEXT:  SQL function "lead_create" statement 1`,
      `${at} QUERY:  SELECT '+79161234567'`,
      `some ERROR:  text of a statement's continuation line`,
      `${at} PANIC:  could not write to file "pg_wal/xlogtemp.123": No space left on device`,
    ].join('\n');
    expect(serverLogLines(chunk)).toEqual([
      `${at} FATAL:  terminating connection due to administrator command`,
      `${at} PANIC:  could not write to file "pg_wal/xlogtemp.123": No space left on device`,
    ]);
  });

  it('blanks quoted values in a kept line, keeping quoted names of constraints, columns, relations and types', () => {
    expect(serverLogLines(`${at} ERROR:  invalid input syntax for type integer: "+79161234567"`)).toEqual([
      `${at} ERROR:  invalid input syntax for type integer: "…"`,
    ]);
    expect(blankQuotedValues('value "ivan@example.com" is not valid for column "email" of relation "user"')).toBe(
      'value "…" is not valid for column "email" of relation "user"',
    );
    expect(blankQuotedValues('new row for relation "lead" violates check constraint "lead_phone_check"')).toBe(
      'new row for relation "lead" violates check constraint "lead_phone_check"',
    );
  });
});

describe('ServerLogFilter', () => {
  it('drops the connections a shutdown request ends, and keeps that line outside a shutdown (an operator ending one backend)', () => {
    const filter = new ServerLogFilter();
    const ended = `${at} FATAL:  terminating connection due to administrator command`;
    expect(filter.lines(ended)).toEqual([ended]);
    expect(filter.lines(`${at} LOG:  received fast shutdown request\n${at} LOG:  aborting any active transactions\n`)).toEqual([]);
    expect(filter.lines(`${ended}\n${ended}\n`)).toEqual([]);
    // Still a failure after the request: anything else is kept.
    expect(filter.lines(`${at} PANIC:  could not write to file "pg_wal/x": No space left on device`)).toHaveLength(1);
  });
});
