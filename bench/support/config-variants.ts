import { createWriteStream } from 'node:fs';
import { LoadResult, load, table } from './load';
import { machine, startBenchApp, startBenchDatabase } from './bench-app';

export interface ConfigVariant {
  label: string;
  env: Record<string, string>;
  /** Info-level logs on (access log lines), written to /dev/null during the load. */
  infoLogs?: boolean;
}

/** Runs `fn` with this process's stdout going to /dev/null (the logger's formatting and write still happen). */
async function withStdoutDiscarded<T>(fn: () => Promise<T>): Promise<T> {
  const sink = createWriteStream('/dev/null');
  const original = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => sink.write(chunk, ...(rest as []));
  try {
    return await fn();
  } finally {
    process.stdout.write = original;
    sink.end();
  }
}

/**
 * One authenticated read under several configurations of the app, each on a fresh instance
 * over the same database, against the unauthenticated liveness probe measured in the same run.
 */
export async function benchReadUnderConfigs(title: string, path: string, variants: ConfigVariant[]): Promise<void> {
  const db = await startBenchDatabase();
  const rows: LoadResult[] = [];
  try {
    for (const [i, variant] of variants.entries()) {
      const app = await startBenchApp(db.url, { WORKERS: '0', ...variant.env }, { infoLogs: variant.infoLogs });
      try {
        if (i === 0) rows.push(await load('GET /health/live (no auth, baseline)', { url: `${app.url}/health/live` }));
        const run = () => load(`GET ${path} ${variant.label}`, { url: `${app.url}${path}`, headers: { 'x-api-key': app.apiKey } });
        rows.push(variant.infoLogs ? await withStdoutDiscarded(run) : await run());
      } finally {
        await app.close();
      }
    }
  } finally {
    await db.close();
  }
  console.log(`\n${title} on ${machine()}\n${table(rows, rows[0])}`);
}
