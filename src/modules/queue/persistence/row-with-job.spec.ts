import { insertJobs } from 'pg-boss/dist/plans.js';
import { withRowCte } from './row-with-job';

const ROW = `INSERT INTO lead_async_job (id, order_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id`;

describe('withRowCte (a caller row and pg-boss jobs in one statement)', () => {
  it("puts the row first and gates pg-boss's payload on it (plain INSERT shape)", () => {
    const merged = withRowCte(insertJobs('pgboss', { table: 'job_common', name: 'lead.create', returnId: true }), ROW)!;
    expect(merged).toMatch(
      /^WITH caller_row AS \(INSERT INTO lead_async_job \(id, order_id\) VALUES \(\$2, \$3\) ON CONFLICT \(id\) DO NOTHING RETURNING id\) INSERT INTO pgboss\.job_common/,
    );
    expect(merged).toContain(`json_to_recordset((CASE WHEN EXISTS (SELECT 1 FROM caller_row) THEN $1::text ELSE '[]' END)::json)`);
    expect(merged).not.toContain('$1::text::json');
  });

  it('merges into the WITH of the NOTIFY shape (data-modifying CTEs stay at the top level)', () => {
    const merged = withRowCte(insertJobs('pgboss', { table: 'job_common', name: 'lead.create', returnId: true, notify: true }), ROW)!;
    expect(merged).toMatch(/^WITH caller_row AS \(INSERT INTO lead_async_job .*\), ins AS \(/s);
    expect(merged.match(/\bWITH\b/g)).toHaveLength(1);
  });

  it('refuses statements of another shape (the caller then uses a transaction)', () => {
    expect(withRowCte('SELECT 1', ROW)).toBeNull();
    expect(withRowCte(`INSERT INTO x SELECT * FROM json_to_recordset($1::text::json) x(a int) WHERE $2`, ROW)).toBeNull();
    expect(withRowCte(insertJobs('pgboss', { table: 'job_common', name: 'q' }), 'UPDATE t SET a = 1')).toBeNull();
  });
});
