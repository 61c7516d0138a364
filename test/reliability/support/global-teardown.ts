import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dropDatabase } from './fleet-db';
import { isAlive, sleep } from './postgres';
import { RESULTS_DIR, ourLiveProcesses, readAllFigures, rememberedDatabases, runState } from './run-dir';

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

/** Rows of every scenario's `summary` as one aligned table. */
function table(rows: [string, string, string][]): string {
  const header: [string, string, string] = ['scenario', 'figure', 'value'];
  const w = [0, 1].map((i) => Math.max(...[header, ...rows].map((r) => r[i].length)));
  const line = (r: [string, string, string]) => `${r[0].padEnd(w[0])}  ${r[1].padEnd(w[1])}  ${r[2]}`;
  return [line(header), line(['-'.repeat(w[0]), '-'.repeat(w[1]), '-----']), ...rows.map(line)].join('\n');
}

/** Ends whatever an aborted scenario left running and drops the databases it left on a server (only this run's). */
async function endLeftovers(runDir: string): Promise<void> {
  const alive = ourLiveProcesses(runDir);
  for (const pid of alive) process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 50 && alive.some(isAlive); i++) await sleep(200);
  for (const pid of alive.filter(isAlive)) process.kill(pid, 'SIGKILL');
  for (const { adminUrl, name } of rememberedDatabases(runDir)) await dropDatabase(adminUrl, name).catch(() => undefined);
}

export default async function globalTeardown(): Promise<void> {
  const { runDir, startedAt } = runState();
  await endLeftovers(runDir);
  const figures = readAllFigures(runDir);
  const rows: [string, string, string][] = [];
  for (const [scenario, f] of Object.entries(figures)) {
    for (const [label, value] of (f.summary as [string, string][] | undefined) ?? []) rows.push([scenario, label, value]);
  }
  const result = {
    startedAt,
    durationSeconds: Math.round((Date.now() - Date.parse(startedAt)) / 1000),
    commit: git(['rev-parse', '--short', 'HEAD']),
    uncommittedChanges: git(['status', '--porcelain', '--', 'src', 'migrations']) !== '',
    scenarios: figures,
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(path.join(RESULTS_DIR, 'latest.json'), JSON.stringify(result, null, 2));
  // PostgreSQL's own logs, for diagnosis (not part of the service log check).
  await mkdir(path.join(RESULTS_DIR, 'postgres'), { recursive: true });
  for (const f of readdirSync(runDir).filter((n) => n.endsWith('-postgres.log'))) {
    await copyFile(path.join(runDir, f), path.join(RESULTS_DIR, 'postgres', f));
  }
  if (existsSync(runDir)) await rm(runDir, { recursive: true, force: true });
  process.stdout.write(
    `\nReliability suite: ${result.durationSeconds} s, commit ${result.commit}${result.uncommittedChanges ? ' + uncommitted changes' : ''}\n` +
      `${rows.length ? table(rows) : '(no figures recorded)'}\n` +
      `figures: ${path.relative(process.cwd(), path.join(RESULTS_DIR, 'latest.json'))}, service logs: ${path.relative(process.cwd(), path.join(RESULTS_DIR, 'logs'))}\n\n`,
  );
}
