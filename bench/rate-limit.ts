import { load, table } from './support/load';
import { machine, startBenchApp, startBenchDatabase } from './support/bench-app';

/**
 * What the rate limiter costs: the same authenticated read with the limiter off and on (one
 * upsert into the shared PostgreSQL counter per request, with a budget too large to refuse).
 * Baseline: the unauthenticated liveness probe, measured in the same run.
 */
export async function rateLimitBench(): Promise<void> {
  const db = await startBenchDatabase();
  const rows = [];
  try {
    for (const on of [false, true]) {
      const app = await startBenchApp(db.url, { RATE_LIMIT_REQUESTS: on ? '1000000' : '0', RATE_LIMIT_WINDOW_SECONDS: '86400', WORKERS: '0' });
      try {
        if (!on) rows.push(await load('GET /health/live (no auth, baseline)', { url: `${app.url}/health/live` }));
        rows.push(await load(`GET /v2/api-key/ with rate limiting ${on ? 'on' : 'off'}`, {
          url: `${app.url}/v2/api-key/`,
          headers: { 'x-api-key': app.apiKey },
        }));
      } finally {
        await app.close();
      }
    }
  } finally {
    await db.close();
  }
  console.log(`\nrate-limit on ${machine()}\n${table(rows, rows[0])}`);
}
