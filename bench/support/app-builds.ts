import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ChildServer, startChild } from './child';

export interface AppReady {
  url: string;
  apiKey?: string;
}

/** One build of the application, running in a process of its own (bench/support/app-server.ts). */
export interface AppBuild {
  /** `current` for this build; `baseline <commit> (<checkout directory>)` for another. */
  label: string;
  child: ChildServer<AppReady>;
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

/**
 * The application of this build and of each baseline build, all on one database with the same
 * configuration (BENCH_APP_ENV of app-server.ts), so that loads can be interleaved between them.
 */
export async function startAppBuilds(databaseUrl: string, env: Record<string, string>): Promise<AppBuild[]> {
  const childEnv = { BENCH_APP_DATABASE_URL: databaseUrl, BENCH_APP_ENV: JSON.stringify(env) };
  const builds: AppBuild[] = [{ label: 'current', child: await startChild<AppReady>('app-server.js', childEnv) }];
  for (const dist of baselineDists()) {
    const child = await startChild<AppReady>(path.join(dist, 'bench/support/app-server.js'), childEnv);
    const commit = commitOf(dist);
    builds.push({ label: commit ? `baseline ${commit} (${path.basename(path.dirname(dist))})` : `baseline ${dist}`, child });
  }
  return builds;
}
