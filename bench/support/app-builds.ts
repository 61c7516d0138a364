import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ChildServer, startChild } from './child';
import { BenchCluster, BenchDatabase, createBenchDatabase } from './cluster';

export interface AppReady {
  url: string;
  apiKey?: string;
}

/** One build of the application, running in a process of its own (bench/support/app-server.ts) on a database of its own. */
export interface AppBuild {
  /** `current` for this build; `baseline <commit> (<checkout directory>)` for another. */
  label: string;
  child: ChildServer<AppReady>;
  db: BenchDatabase;
}

/** The `dist/` directories of other builds in BENCH_BASELINE_DIST (comma-separated), each built with `npm run build` in its own checkout. */
export function baselineDists(): string[] {
  return (process.env.BENCH_BASELINE_DIST ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => path.resolve(d));
}

/** The checkout's commit a dist was built from, when it is a git checkout. */
function commitOf(dist: string): string | null {
  try {
    return execFileSync('git', ['-C', path.dirname(dist), 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** A database migrated by the build's own migration CLI: builds may differ in schema (a function's signature, a column). */
async function databaseOf(cluster: BenchCluster, dist: string | null): Promise<BenchDatabase> {
  if (!dist) return createBenchDatabase(cluster);
  const migrate = (url: string) =>
    promisify(execFile)(process.execPath, [path.join(dist, 'src/cli/migrate.js'), 'run'], { env: { ...process.env, DATABASE_URL: url } });
  return createBenchDatabase(cluster, migrate);
}

/**
 * This build and each baseline build, each on its own database with the demo dataset, seeded by a process of its own (so the
 * measured processes have all done the same work before their loads), all with the same configuration (BENCH_APP_ENV).
 */
export async function startAppBuilds(cluster: BenchCluster, env: Record<string, string>): Promise<AppBuild[]> {
  const builds: AppBuild[] = [];
  for (const dist of [null, ...baselineDists()]) {
    const db = await databaseOf(cluster, dist);
    const script = dist ? path.join(dist, 'bench/support/app-server.js') : 'app-server.js';
    const childEnv = { BENCH_APP_DATABASE_URL: db.url, BENCH_APP_ENV: JSON.stringify(env) };
    const seeder = await startChild<AppReady>(script, childEnv);
    await seeder.call('seed');
    await seeder.stop();
    const commit = dist ? commitOf(dist) : null;
    const label = !dist ? 'current' : commit ? `baseline ${commit} (${path.basename(path.dirname(dist))})` : `baseline ${dist}`;
    builds.push({ label, child: await startChild<AppReady>(script, childEnv), db });
  }
  return builds;
}
