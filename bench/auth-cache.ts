import { load, table } from './support/load';
import { machine, startBenchApp, startBenchDatabase } from './support/bench-app';

/**
 * The API-key cache on the hot path: the same authenticated read with the 5 s cache and with none
 * (every request verifies the key in PostgreSQL). Baseline: the unauthenticated liveness probe.
 */
export async function authCacheBench(): Promise<void> {
  const db = await startBenchDatabase();
  const rows = [];
  try {
    for (const ttl of ['5000', '0']) {
      const app = await startBenchApp(db.url, { API_KEY_CACHE_TTL_MS: ttl, WORKERS: '0' });
      try {
        if (ttl === '5000') rows.push(await load('GET /health/live (no auth, baseline)', { url: `${app.url}/health/live` }));
        rows.push(await load(`GET /v2/api-key/ with key cache ${ttl === '0' ? 'off' : '5 s'}`, {
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
  console.log(`\nauth-cache on ${machine()}\n${table(rows, rows[0])}`);
}
