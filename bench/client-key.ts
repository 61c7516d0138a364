import type autocannon from 'autocannon';
import os from 'node:os';
import { Pool } from 'pg';
import { AppReady } from './support/app-builds';
import { benchLeads } from './support/bench-leads';
import { ChildServer, startChild } from './support/child';
import { assignBenchClient, clientLeadsPercent, createApiKey } from './support/client-cases';
import { createBenchDatabase, describeMachine, startBenchCluster } from './support/cluster';
import { CONNECTIONS, failures, interleaved, resultCells, ROUNDS, SECONDS, VariantResult } from './support/interleaved';
import { getRandomIds } from './support/load';
import { LoadTarget, mdRow } from './support/measured-load';
import { settle, createPopulation, grow } from './support/realistic-data';
import { BenchSection } from './support/report';

/**
 * A client key against an unrestricted key on the create, detail and list paths, in one run on one app without workers: production-shaped
 * leads of 34 interleaved orders, a third of them client C's; C's key on C's orders and leads, an unrestricted `api` key on the others'.
 * Rounds interleaved path by path; ratios client / unrestricted by server and PostgreSQL CPU per request and by requests per second.
 */

/** Leads in the table before the loads (BENCH_CLIENT_LEADS). */
const LEADS = Number(process.env.BENCH_CLIENT_LEADS ?? 100_000);
const CLIENT = 'client key';
const UNRESTRICTED = 'unrestricted key';

interface Side {
  label: typeof CLIENT | typeof UNRESTRICTED;
  key: string;
  /** The order its creates and its one-order page go to. */
  order: { id: number; code: string };
  /** The leads its detail reads pick from: C's for the client key, the others for the unrestricted one. */
  leads: number[];
}

export async function clientKeyBench(): Promise<BenchSection> {
  const cluster = await startBenchCluster();
  const db = await createBenchDatabase(cluster);
  const machine = await describeMachine(db.url);
  const pool = new Pool({ connectionString: db.url, max: 2 });
  let app: ChildServer<AppReady> | undefined;
  const results: VariantResult[] = [];
  const client = { orders: 0, leadsPercent: 0 };
  try {
    const pop = await createPopulation(pool, [LEADS]);
    const c = await assignBenchClient(pool, pop);
    await grow(pool, pop, 0, LEADS, false);
    await settle(db.url, pool);
    Object.assign(client, { orders: c.orderIds.length, leadsPercent: await clientLeadsPercent(pool, c) });
    app = await startChild<AppReady>('app-server.js', {
      BENCH_APP_DATABASE_URL: db.url,
      BENCH_APP_ENV: JSON.stringify({ WORKERS: '0', API_KEY_CACHE_TTL_MS: '5000' }),
    });
    const { url, apiKey: admin } = app.ready;
    const side = async (label: Side['label'], clientId: number | null, orderId: number): Promise<Side> => ({
      label,
      key: await createApiKey(url, admin!, `bench-${label.replace(' ', '-')}`, clientId),
      order: (await pool.query(`SELECT id, code FROM call_order WHERE id = $1`, [orderId])).rows[0] as Side['order'],
      leads: (await pool.query(`SELECT id FROM lead WHERE (order_id = ANY($1)) = $2`, [c.orderIds, clientId !== null])).rows.map((r: { id: number }) => r.id),
    });
    // Orders of near sizes (zipf 5 and 4: ~5% and ~6% of the leads), one without a client, one C's.
    const sides = [await side(UNRESTRICTED, null, pop.zipf[4]), await side(CLIENT, c.id, c.mid)];
    const headers = (s: Side) => ({ 'x-api-key': s.key });
    const paths: [string, (s: Side) => autocannon.Options][] = [
      ['POST /v2/lead/create/', (s) => create(url, s)],
      ['GET /v2/lead/detail/{id}/', (s) => getRandomIds(url, '/v2/lead/detail/', s.leads, headers(s))],
      ['GET /v2/lead/ (first page)', (s) => ({ url: `${url}/v2/lead/`, headers: headers(s) })],
      // The same rows by both keys: C's reach, and C's orders as an unrestricted key's filter.
      [
        "GET /v2/lead/ (first page of C's leads: its key, or orderIds)",
        (s) => ({ url: `${url}/v2/lead/${s.label === CLIENT ? '' : `?orderIds=${c.orderIds.join(',')}`}`, headers: headers(s) }),
      ],
      ['GET /v2/lead/?orderIds= (first page of its order)', (s) => ({ url: `${url}/v2/lead/?orderIds=${s.order.id}`, headers: headers(s) })],
    ];
    const target: LoadTarget = { pid: app.pid, cluster, databaseUrl: db.url };
    for (const [path, options] of paths) {
      const measured = await interleaved(
        path,
        sides.map((s) => ({ label: s.label, options: options(s), target })),
      );
      for (const r of measured) if (failures(r).non2xx) console.warn(`client-key: ${path} with the ${r.label}: ${failures(r).non2xx} non-2xx answers`);
      results.push(...measured);
    }
  } finally {
    await app?.stop();
    await pool.end();
    await db.drop();
    await cluster.stop();
  }
  machine.loadEnd = os.loadavg()[0];
  return {
    bench: 'client-key',
    machine,
    markdown: markdown(results, client),
    data: { leads: LEADS, client, rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, results },
  };
}

/** Creates into the side's order with its key; each side its own stream of bodies (one in ten a duplicate to link). */
function create(url: string, side: Side): autocannon.Options {
  const bodies = benchLeads(side.order);
  return {
    url: `${url}/v2/lead/create/`,
    requests: [
      {
        method: 'POST',
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          headers: { 'content-type': 'application/json', 'x-api-key': side.key },
          body: JSON.stringify(bodies.lead()),
        }),
      },
    ],
  };
}

function markdown(results: VariantResult[], client: { orders: number; leadsPercent: number }): string {
  const lines = [
    `${LEADS} leads of 34 interleaved orders; client C owns ${client.orders} of them (${client.leadsPercent}% of the leads). ` +
      `${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per key and path, interleaved. CPU and p50: the key's round with the least ` +
      'server CPU per request; req/s: its round with the most. Ratios client / unrestricted: CPU per request (above 1: the client key costs ' +
      'more) and req/s (below 1: it is slower); beyond 5% in bold; none where a round answered errors or non-2xx. List pages (50 rows): ' +
      "each key's whole reach; C's leads by both keys (the unrestricted one naming C's orders); each key's create order.",
    '',
    mdRow([
      'Path',
      'key',
      'server CPU ms',
      'PostgreSQL CPU ms',
      'p50 ms',
      'req/s',
      'errors / non-2xx (all rounds)',
      'client / unrestricted: server CPU',
      'PostgreSQL CPU',
      'req/s',
    ]),
    mdRow(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  const ratio = (a: number | null, b: number | null, worse: (x: number) => boolean) => {
    if (!a || !b) return '';
    const x = a / b;
    return worse(x) ? `**${x.toFixed(2)}x**` : `${x.toFixed(2)}x`;
  };
  for (const r of results) {
    const other = results.find((x) => x.path === r.path && x.label === UNRESTRICTED)!;
    const { errors, non2xx } = failures(r);
    const clean = r.label === CLIENT && !errors && !non2xx && !failures(other).errors && !failures(other).non2xx;
    lines.push(
      mdRow([
        ...resultCells(r),
        clean ? ratio(r.best.serverCpuMs, other.best.serverCpuMs, (x) => x > 1.05) : '',
        clean ? ratio(r.best.postgresCpuMs, other.best.postgresCpuMs, (x) => x > 1.05) : '',
        clean ? ratio(r.mostRequestsPerSecond, other.mostRequestsPerSecond, (x) => x < 0.95) : '',
      ]),
    );
  }
  return lines.join('\n');
}
