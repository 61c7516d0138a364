import 'reflect-metadata';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { orphanSqlFiles, readSqlFile, renderSqlFile, repoRoot } from '../database/sql-snapshot/sql-file';
import { SQL_SNAPSHOTS } from '../assembly/sql-snapshot/sql-snapshots';

/** `npm run sql:snapshot`: rewrites every `.sql` snapshot that differs from the SQL the code generates, deletes those nothing generates. */
async function main(): Promise<void> {
  const root = repoRoot();
  for (const snapshot of SQL_SNAPSHOTS) {
    const text = await renderSqlFile(snapshot);
    if (readSqlFile(snapshot.file) === text) continue;
    writeFileSync(path.join(root, snapshot.file), text);
    console.log(`wrote ${snapshot.file}`);
  }
  for (const file of orphanSqlFiles(SQL_SNAPSHOTS)) {
    rmSync(path.join(root, file));
    console.log(`deleted ${file}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
