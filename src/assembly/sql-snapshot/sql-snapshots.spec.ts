import { orphanSqlFiles, readSqlFile, renderSqlFile } from '../../database/sql-snapshot/sql-file';
import { SQL_SNAPSHOTS } from './sql-snapshots';

/** The first line where two texts differ, for the failure message. */
function firstDifference(actual: string, expected: string): string {
  const a = actual.split('\n');
  const e = expected.split('\n');
  const i = e.findIndex((line, n) => line !== a[n]);
  const at = i === -1 ? e.length : i;
  return `line ${at + 1}:\n  checked in: ${a[at] ?? '(end of file)'}\n  generated:  ${e[at] ?? '(end of file)'}`;
}

describe('SQL snapshots', () => {
  it.each(SQL_SNAPSHOTS.map((s) => [s.file, s] as const))('%s holds the SQL the code generates', async (file, snapshot) => {
    const expected = await renderSqlFile(snapshot);
    const actual = readSqlFile(file);
    if (actual === null) throw new Error(`${file} is missing: run npm run sql:snapshot`);
    if (actual !== expected) throw new Error(`${file} differs from the SQL the code generates: run npm run sql:snapshot\n${firstDifference(actual, expected)}`);
  });

  it('leaves no snapshot file that nothing generates', () => {
    const orphans = orphanSqlFiles(SQL_SNAPSHOTS);
    if (orphans.length) throw new Error(`no capture writes ${orphans.join(', ')}: delete them or run npm run sql:snapshot`);
  });
});
