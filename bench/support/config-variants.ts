import { LoadResult, load, table } from './load';
import { machine, startBenchApp, startBenchDatabase } from './bench-app';

export interface ConfigVariant {
  label: string;
  env: Record<string, string>;
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
      const app = await startBenchApp(db.url, { WORKERS: '0', ...variant.env });
      try {
        if (i === 0) rows.push(await load('GET /health/live (no auth, baseline)', { url: `${app.url}/health/live` }));
        rows.push(await load(`GET ${path} ${variant.label}`, { url: `${app.url}${path}`, headers: { 'x-api-key': app.apiKey } }));
      } finally {
        await app.close();
      }
    }
  } finally {
    await db.close();
  }
  console.log(`\n${title} on ${machine()}\n${table(rows, rows[0])}`);
}
