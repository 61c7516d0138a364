import { readFile, rm } from 'node:fs/promises';
import { Client } from 'pg';
import { takeSkipNotes } from './skip-notes';
import { STATE_FILE, TestDbState } from './test-db';

export default async function globalTeardown(): Promise<void> {
  const state = JSON.parse(await readFile(STATE_FILE, 'utf8')) as TestDbState;
  const admin = new Client({ connectionString: state.adminUrl });
  await admin.connect();
  try {
    // Leave the shared server as we found it: drop the databases this run made (its template and
    // the files' clones of it), never those of another run sharing the server.
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1) OR datname = $2`, [
      `${state.template}_f`,
      state.template,
    ]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  const pg = (globalThis as { __EMBEDDED_PG__?: { stop(): Promise<void> } }).__EMBEDDED_PG__;
  if (pg) await pg.stop();
  if (state.dataDir) await rm(state.dataDir, { recursive: true, force: true });
  await rm(STATE_FILE, { force: true });
  // After Jest's summary, where a full run shows it.
  for (const note of takeSkipNotes(STATE_FILE)) process.stdout.write(`\n${note}\n`);
}
