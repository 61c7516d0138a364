import { readFile, rm } from 'node:fs/promises';
import { Client } from 'pg';
import { STATE_FILE, TestDbState } from './test-db';

export default async function globalTeardown(): Promise<void> {
  const state = JSON.parse(await readFile(STATE_FILE, 'utf8')) as TestDbState;
  const admin = new Client({ connectionString: state.adminUrl });
  await admin.connect();
  try {
    // Leave the shared server as we found it: drop every database this run made.
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'cc_test_%'`);
    for (const { datname } of rows) {
      if (datname === state.template || datname.startsWith(`cc_test_${process.pid}_`) || datname.startsWith('cc_test_f')) {
        await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    }
  } finally {
    await admin.end();
  }
  const pg = (globalThis as { __EMBEDDED_PG__?: { stop(): Promise<void> } }).__EMBEDDED_PG__;
  if (pg) await pg.stop();
  if (state.dataDir) await rm(state.dataDir, { recursive: true, force: true });
  await rm(STATE_FILE, { force: true });
}
