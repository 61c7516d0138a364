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
