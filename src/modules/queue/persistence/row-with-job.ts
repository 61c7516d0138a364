import type { PreparedStatement } from '../../../database/prepared-query';

/**
 * pg-boss inserts jobs in one statement reading its only parameter through `json_to_recordset($1::text::json)` (`INSERT ... SELECT`,
 * or `WITH ins AS (...)` with NOTIFY). `withRowCte` prepends the caller's row insert as a data-modifying CTE and passes pg-boss the
 * jobs only if that row was inserted: one statement, one commit. Null for another shape (the caller then uses a transaction).
 */
const PAYLOAD = '$1::text::json';
export const ROW_CTE = 'caller_row';

export function withRowCte(jobInsert: string, rowInsert: string): string | null {
  const text = jobInsert.trimStart();
  if (text.split(PAYLOAD).length !== 2 || /\$(?:[2-9]|1\d)/.test(text)) return null;
  if (!/^\s*INSERT\s/i.test(rowInsert) || !/\bRETURNING\b/i.test(rowInsert)) return null;
  // The row's placeholders follow pg-boss's single one.
  const row = rowInsert.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + 1}`);
  const gated = text.replace(PAYLOAD, `(CASE WHEN EXISTS (SELECT 1 FROM ${ROW_CTE}) THEN $1::text ELSE '[]' END)::json`);
  if (/^WITH\s/i.test(gated)) return `WITH ${ROW_CTE} AS (${row}), ${gated.slice(5)}`;
  if (/^INSERT\s/i.test(gated)) return `WITH ${ROW_CTE} AS (${row}) ${gated}`;
  return null;
}

/**
 * The merged statements of JobQueueService.sendWithRow, by pg-boss's statement and the row's: built
 * once, run as named statements (pg-boss's insert is long; parsing and planning it is most of an
 * accept's PostgreSQL time). Module-wide, so a name always stands for one text on any connection.
 */
const mergedStatements = new Map<string, PreparedStatement | null>();

/** `withRowCte` of the two statements as a named statement; null when pg-boss's has another shape. */
export function mergedStatement(jobInsert: string, rowInsert: string): PreparedStatement | null {
  const key = `${rowInsert}\u0000${jobInsert}`;
  let statement = mergedStatements.get(key);
  if (statement === undefined) {
    const text = withRowCte(jobInsert, rowInsert);
    statement = text === null ? null : { name: `row_with_job_${mergedStatements.size + 1}`, text };
    mergedStatements.set(key, statement);
  }
  return statement;
}
