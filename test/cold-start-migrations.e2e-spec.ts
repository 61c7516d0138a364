import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { MIGRATIONS } from '../migrations';
import { runMigrations } from '../src/assembly/data-source';
import { type TestDbState, withDatabase } from './support/test-db';

/**
 * Instances started at the same moment on an empty database each run the migrations at start: one
 * applies them, the others wait for the start-up lock and find nothing left (no `deadlock detected`
 * from CREATE INDEX CONCURRENTLY waiting on the waiters' snapshots).
 */
describe('migrations run by several instances at once on an empty database', () => {
  const { adminUrl, template } = JSON.parse(readFileSync(process.env.CC_TEST_DB_STATE!, 'utf8')) as TestDbState;
  // Named after the run's template, so the run's teardown drops it even if this file stops early.
  const name = `${template}_f${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });

  beforeAll(async () => {
    // The waiters say they wait, at info level: not this test's output.
    Logger.overrideLogger(['error']);
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
  });
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('all succeed and each migration is applied once', async () => {
    const url = withDatabase(adminUrl, name);
    const runs = await Promise.allSettled(Array.from({ length: 6 }, () => runMigrations(url)));
    const failures = runs.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
    expect(failures).toEqual([]);
    const applied = runs.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
    expect(applied.sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());

    const db = new Client({ connectionString: url });
    await db.connect();
    try {
      const rows = (await db.query<{ name: string; n: number }>(`SELECT name, count(*)::int AS n FROM migrations GROUP BY name`)).rows;
      expect(rows).toHaveLength(MIGRATIONS.length);
      expect(rows.filter((r) => r.n !== 1)).toEqual([]);
    } finally {
      await db.end();
    }
  });
});
