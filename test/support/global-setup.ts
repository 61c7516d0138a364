import { mkdtemp, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { PgBoss } from 'pg-boss';
import { runMigrations } from '../../src/assembly/data-source';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { STATE_FILE, testDatabaseUrlProblem, TestDbState, withDatabase } from './test-db';

/**
 * One PostgreSQL per run: TEST_DATABASE_URL when set, else an embedded throwaway server.
 * A template database is migrated once; each test file clones it (CREATE DATABASE ... TEMPLATE).
 */
export default async function globalSetup(): Promise<void> {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let dataDir: string | undefined;
  // Refuse a server database that does not say it is for tests: the run creates and drops databases there.
  const problem = adminUrl ? testDatabaseUrlProblem(adminUrl) : null;
  if (problem) throw new Error(problem);
  if (!adminUrl) {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cc-test-pg-'));
    await chmod(dataDir, 0o755);
    const pg = await startEmbeddedPostgres({ dataDir, ephemeral: true });
    adminUrl = pg.url;
    (globalThis as { __EMBEDDED_PG__?: unknown }).__EMBEDDED_PG__ = pg;
  }
  const template = `cc_test_tmpl_${process.pid}`;
  // From template0: empty, whatever template1 of the server holds.
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template} TEMPLATE template0`);
  } finally {
    await admin.end();
  }
  const templateUrl = withDatabase(adminUrl, template);
  await runMigrations(templateUrl);
  const boss = new PgBoss({ connectionString: templateUrl, schema: 'pgboss', max: 1 });
  await boss.start();
  await boss.stop({ graceful: false });
  const state: TestDbState = { adminUrl, template, dataDir };
  await writeFile(STATE_FILE, JSON.stringify(state));
  process.env.CC_TEST_DB_STATE = STATE_FILE;
}
