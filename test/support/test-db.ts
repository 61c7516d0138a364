import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

export interface TestDbState {
  adminUrl: string;
  template: string;
  dataDir?: string;
}

export const STATE_FILE = path.join(tmpdir(), `cc-test-db-${process.ppid}-${process.pid}.json`);

/**
 * Why TEST_DATABASE_URL must not be used, or null. The tests create and drop databases on its server, so it must name
 * a test database (name contains `test`, e.g. postgres://postgres@127.0.0.1:5432/test): a production or development
 * URL pasted by mistake is refused before anything is created.
 */
export function testDatabaseUrlProblem(url: string): string | null {
  let database: string;
  try {
    database = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  } catch {
    return 'TEST_DATABASE_URL is not a postgres:// URL';
  }
  if (!/test/i.test(database)) {
    return `TEST_DATABASE_URL names the database "${database || '(none)'}": the tests create and drop databases on its server, so it must name a test database (a name containing "test", e.g. postgres://postgres@127.0.0.1:5432/test)`;
  }
  return null;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

function state(): TestDbState {
  const file = process.env.CC_TEST_DB_STATE;
  if (!file) throw new Error('e2e tests need the Jest global setup (run them with npm test)');
  return JSON.parse(readFileSync(file, 'utf8')) as TestDbState;
}

/** A private database for one test file, cloned from the migrated template. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const { adminUrl, template } = state();
  // Named after the run's template, so a run's teardown drops its own databases only.
  const name = `${template}_f${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(adminUrl, name),
    drop: async () => {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
