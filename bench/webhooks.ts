import type autocannon from 'autocannon';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { Pool } from 'pg';
import { startChild } from './support/child';
import { createBenchDatabase, describeMachine, startBenchCluster } from './support/cluster';
import { LoadTarget, MeasuredLoad, mdRow, measuredLoad, SECONDS } from './support/measured-load';
import { BenchSection } from './support/report';

/**
 * Issue 12: what a subscribed webhook costs the synchronous lead create, and how fast deliveries
 * go out. One app instance (WORKERS=2, so it also dispatches and delivers), one cluster, one run:
 *
 * 1. `POST /v2/lead/create/` at 50 connections without a webhook;
 * 2. the same with one webhook subscribed to `lead.created` of that order, pointing at a fast local
 *    receiver (node:http in the bench process, 204 at once); deliveries run during the load;
 * 3. without it again (the webhook paused), so the ratio is against the mean of 1 and 3;
 * 4. delivery throughput: every delivery of step 2 made due again at once (what a mass redelivery
 *    does), timed until all are delivered again: claim, sign, POST, record, as in normal operation.
 *
 * Goals: create with a webhook at least 0.9x without; deliveries per second at least the sync
 * create rate. `npm run bench -- webhooks` (BENCH_SECONDS: seconds per load, default 10).
 */

interface Ready {
  url: string;
  apiKey: string;
}

async function startReceiver(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    count: () => count,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

export async function webhooksBench(): Promise<BenchSection> {
  const cluster = await startBenchCluster();
  const db = await createBenchDatabase(cluster);
  const machine = await describeMachine(db.url);
  const pool = new Pool({ connectionString: db.url, max: 2 });
  const receiver = await startReceiver();
  const env = { WORKERS: '2', API_KEY_CACHE_TTL_MS: '5000', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
  const app = await startChild<Ready>('app-server.js', { BENCH_APP_DATABASE_URL: db.url, BENCH_APP_ENV: JSON.stringify(env) });
  const loads: MeasuredLoad[] = [];
  let drain: { deliveries: number; seconds: number; perSecond: number };
  let lagAfterLoad: { pending: number; seconds: number };
  try {
    await app.call('seed');
    const [order] = (await pool.query(`SELECT id, code FROM call_order ORDER BY id LIMIT 1`)).rows as { id: number; code: string }[];
    const target: LoadTarget = { pid: app.pid, cluster, databaseUrl: db.url };
    const headers = { 'x-api-key': app.ready.apiKey, 'content-type': 'application/json' };
    let seq = 0;
    const phone = () => `+7916${String(1_000_000 + ((seq++ * 7_919) % 8_999_999)).padStart(7, '0')}`;
    const create = (extra: Partial<autocannon.Options> = {}): autocannon.Options => ({
      url: `${app.ready.url}/v2/lead/create/`,
      requests: [
        {
          method: 'POST',
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            headers: { ...headers },
            body: JSON.stringify({ leadType: 'straight', phone: phone(), orderId: order.id, orderCode: order.code, name: 'Bench' }),
          }),
        },
      ],
      ...extra,
    });
    const api = async (path: string, body: unknown) => {
      const res = await fetch(`${app.ready.url}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': app.ready.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).catch((err: Error) => {
        throw new Error(`${path}: ${err.message} (${String((err as { cause?: unknown }).cause)})`);
      });
      const json = (await res.json()) as { success: boolean; data: { id?: number } };
      if (!json.success) throw new Error(`${path}: ${JSON.stringify(json)}`);
      return json.data;
    };
    const delivered = async () =>
      (
        await pool.query(`SELECT count(*) FILTER (WHERE status = 'delivered')::int AS n, count(*)::int AS total FROM webhook_delivery WHERE webhook_id = $1`, [
          webhookId,
        ])
      ).rows[0] as { n: number; total: number };
    let webhookId = 0;

    await measuredLoad('warm-up', create({ duration: 3 }), target);
    loads.push(await measuredLoad('POST /v2/lead/create/ without a webhook', create(), target));

    webhookId = (await api('/v2/webhook/create/', { url: receiver.url, events: ['lead.created'], orderIds: [order.id] })).id!;
    loads.push(await measuredLoad('POST /v2/lead/create/ with 1 webhook (lead.created)', create(), target));
    const created = loads[1].requests - loads[1].errors - loads[1].non2xx;
    const atEnd = await delivered();
    const loadEnd = Date.now();
    const drained = await waitFor(async () => {
      const d = await delivered();
      return d.n >= created && d.n === d.total;
    }, 120_000);
    lagAfterLoad = { pending: created - atEnd.n, seconds: Math.round((Date.now() - loadEnd) / 100) / 10 };
    if (!drained) console.warn('webhooks: deliveries of the load did not all arrive within 120 s');

    await api(`/v2/webhook/update/${webhookId}/`, { isActive: false });
    loads.push(await measuredLoad('POST /v2/lead/create/ without a webhook (again)', create(), target));

    // Throughput: every delivery made due at once, then timed until all are delivered again.
    await api(`/v2/webhook/update/${webhookId}/`, { isActive: true });
    const before = receiver.count();
    const start = Date.now();
    await pool.query(`UPDATE webhook_delivery SET status = 'pending', next_attempt_at = now() WHERE webhook_id = $1`, [webhookId]);
    const n = (await delivered()).total;
    const done = await waitFor(async () => (await delivered()).n >= n, 300_000);
    const seconds = (Date.now() - start) / 1000;
    if (!done) console.warn('webhooks: the redelivery did not finish within 300 s');
    drain = { deliveries: receiver.count() - before, seconds: Math.round(seconds * 10) / 10, perSecond: Math.round((receiver.count() - before) / seconds) };
  } finally {
    await app.stop();
    await receiver.close();
    await pool.end();
    await db.drop();
    await cluster.stop();
  }
  machine.loadEnd = os.loadavg()[0];
  const without = (loads[0].requestsPerSecond + loads[2].requestsPerSecond) / 2;
  const ratio = loads[1].requestsPerSecond / without;
  const lines = [
    `50 connections, ${SECONDS} s per load; receiver: node:http on 127.0.0.1 answering 204 (in the bench process, beside autocannon). ` +
      'CPU ms per request: the server process and the whole PostgreSQL cluster.',
    '',
    mdRow(['Load', 'req/s', 'p50 ms', 'p99 ms', 'errors / non-2xx', 'server CPU ms', 'PostgreSQL CPU ms']),
    mdRow(['---', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...loads.map((r) => mdRow([r.name, r.requestsPerSecond, r.p50Ms, r.p99Ms, `${r.errors} / ${r.non2xx}`, r.serverCpuMs ?? '', r.postgresCpuMs ?? ''])),
    '',
    `With a webhook / without (mean of both runs): **${ratio.toFixed(2)}x** (goal: at least 0.9x). ` +
      `At the end of the load ${lagAfterLoad.pending} deliveries were still to go; all were delivered ${lagAfterLoad.seconds} s later.`,
    '',
    `Delivery throughput: ${drain.deliveries} deliveries made due at once were delivered in ${drain.seconds} s: ` +
      `**${drain.perSecond} deliveries/s**, ${(drain.perSecond / without).toFixed(2)}x the sync create rate without a webhook (goal: at least 1x).`,
  ];
  return { bench: 'webhooks', machine, markdown: lines.join('\n'), data: { loads, ratio, lagAfterLoad, drain } };
}
