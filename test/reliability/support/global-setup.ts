import { chmod, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiKeyNeedles, newApiKey } from './fixtures';
import { DATABASE, initCluster, PgServer } from './postgres';
import { LOG_DIR, RunState, emptyNeedles, writeNeedles } from './run-dir';
import { ServiceProcess } from './service';

/**
 * Builds the template every scenario copies: a fresh cluster, the service started once on it
 * (migrations, pg-boss schema, demo dataset, the run's API_KEY), then both stopped cleanly.
 */
export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  const runDir = await mkdtemp(path.join(tmpdir(), 'cc-reliability-'));
  await chmod(runDir, 0o755);
  await rm(LOG_DIR, { recursive: true, force: true });
  await mkdir(LOG_DIR, { recursive: true });
  const apiKey = newApiKey();
  const state: RunState = { runDir, templateDir: path.join(runDir, 'template'), startedAt: new Date().toISOString(), apiKey };
  const stateFile = path.join(runDir, 'state.json');
  await writeFile(stateFile, JSON.stringify(state));
  process.env.CC_REL_STATE = stateFile;

  await initCluster(state.templateDir);
  const pg = await PgServer.start(state.templateDir, path.join(runDir, 'template-postgres.log'));
  try {
    await pg.withClient((c) => c.query(`CREATE DATABASE ${DATABASE}`), 'postgres');
    const service = await ServiceProcess.start({ databaseUrl: pg.url(), apiKey, name: 'setup', env: { SEED_DEMO: 'true' } });
    await service.stop();
  } finally {
    await pg.stop();
  }
  await writeNeedles('setup', { ...emptyNeedles(), secrets: apiKeyNeedles(apiKey) });
  process.stdout.write(`\nreliability: template cluster ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${runDir})\n`);
}
