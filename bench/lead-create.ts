import type autocannon from 'autocannon';
import { load, LoadResult, table } from './support/load';
import { machine, startBenchApp, startBenchDatabase } from './support/bench-app';

/**
 * A burst of leads from an ad campaign: 20 connections posting new leads for 8 s each way.
 * Sync create (lead committed before the answer), sync with Idempotency-Key, async create (job
 * durably queued before the answer), then how fast the workers drain the queued jobs.
 * Baseline: the liveness probe on the same instance.
 */
export async function leadCreateBench(): Promise<void> {
  const db = await startBenchDatabase();
  const app = await startBenchApp(db.url, { WORKERS: process.env.BENCH_WORKERS ?? '2', API_KEY_CACHE_TTL_MS: '5000' });
  const rows: LoadResult[] = [];
  let drain = '';
  try {
    await app.seed();
    const order: { id: number; code: string }[] = await app.ds.query(`SELECT id, code FROM call_order ORDER BY id LIMIT 1`);
    if (!order.length) throw new Error('no order: the bench app should have seeded the demo dataset');
    let seq = 0;
    const body = () =>
      JSON.stringify({ leadType: 'straight', phone: `+7916${String(1_000_000 + (seq++ % 8_999_999)).padStart(7, '0')}`, orderId: order[0].id, orderCode: order[0].code, name: 'Bench' });
    const post = (path: string, idempotent = false): autocannon.Options => ({
      url: `${app.url}${path}`,
      requests: [
        {
          method: 'POST',
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            headers: { 'content-type': 'application/json', 'x-api-key': app.apiKey, ...(idempotent ? { 'idempotency-key': `bench-${seq}` } : {}) },
            body: body(),
          }),
        },
      ],
    });
    rows.push(await load('GET /health/live (baseline)', { url: `${app.url}/health/live` }));
    rows.push(await load('POST /v2/lead/create/', post('/v2/lead/create/')));
    rows.push(await load('POST /v2/lead/create/ + Idempotency-Key', post('/v2/lead/create/', true)));
    const before: { n: number }[] = await app.ds.query(`SELECT count(*)::int AS n FROM lead`);
    const started = Date.now();
    rows.push(await load('POST /v2/lead/create-async/', post('/v2/lead/create-async/')));
    for (;;) {
      const left: { n: number }[] = await app.ds.query(`SELECT count(*)::int AS n FROM lead_async_job WHERE state = 'queued'`);
      if (left[0].n === 0 || Date.now() - started > 300_000) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const after: { n: number }[] = await app.ds.query(`SELECT count(*)::int AS n FROM lead`);
    const failed: { n: number }[] = await app.ds.query(`SELECT count(*)::int AS n FROM lead_async_job WHERE state = 'failed'`);
    const seconds = (Date.now() - started) / 1000;
    drain = `async jobs: ${after[0].n - before[0].n} leads created by the workers, ${failed[0].n} failed, accepted and drained in ${seconds.toFixed(1)} s ` +
      `(${Math.round((after[0].n - before[0].n) / seconds)} leads/s end to end)`;
  } finally {
    await app.close();
    await db.close();
  }
  console.log(`\nlead-create on ${machine()}\n${table(rows, rows[0])}\n${drain}`);
}
